import Foundation

enum FileHandleWriter {
    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
