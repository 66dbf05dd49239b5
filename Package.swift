// swift-tools-version:6.0
// Buoy: a Lottie download screen for embedded Linux.
// Modules follow the data flow: LottieModel (parse) → Player (time → frame) → LottieRender
// (evaluate a frame) → Raster (paths, coverage, paint, compositing, pixel formats) → Display
// (DRM/KMS, fbdev, headless) → the `buoy` executable.
import PackageDescription

// FreeType's header directory, which only Sources/CTextLibraries' C files use (FreeType is not
// linked, so pkg-config is not asked): under the cross build's sysroot when there is one
// (tools/arm64-build sets PKG_CONFIG_SYSROOT_DIR).
let freeTypeHeaders = "-I" + (Context.environment["PKG_CONFIG_SYSROOT_DIR"] ?? "") + "/usr/include/freetype2"

// Code generation for every Swift target of this package but the tests (set in one place so
// they agree). No frame pointers: SwiftPM builds for Linux with -fno-omit-frame-pointer, given to
// the Clang importer, whose setting decides Swift's code generation too; that keeps rbp (arm64:
// x29) out of register allocation in every function, and the renderer's row loops spill values
// every row. `-Xcc -Xclang -Xcc -mframe-pointer=none` lands on Clang's own command line after
// SwiftPM's flag, so it wins (`-Xcc -fomit-frame-pointer` here lands before SwiftPM's flag, and
// `-Xllvm -frame-pointer=none` is overridden: neither changes the code). What is lost: call graphs
// from `perf record --call-graph fp` (use `--call-graph dwarf`: .eh_frame stays), and the Swift
// runtime's crash backtracer's fast (frame-pointer) unwinding where swift-backtrace is installed
// (not on a board: the static binary does not ship it). Measured: -1.4 % instructions a frame at
// 512x512, -2.5..-4 % CPU a frame on files near the median (interleaved A/B).
let codeGeneration: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-Xclang", "-Xcc", "-mframe-pointer=none"])]

let package = Package(
    name: "Buoy",
    products: [
        .executable(name: "buoy", targets: ["buoy"]),
        .library(name: "LottieModel", targets: ["LottieModel"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "LottieRender", targets: ["LottieRender"]),
        .library(name: "Player", targets: ["Player"]),
        .library(name: "Display", targets: ["Display"]),
        .library(name: "Download", targets: ["Download"]),
        .library(name: "Posix", targets: ["Posix"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // toml++ through TOMLKit: the reference buoy's own TOML reader is tested against (tests only:
        // TOMLKit imports full Foundation, which the shipped binary no longer links).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // System C libraries from Debian's -dev packages, found through pkg-config.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),

        .systemLibrary(name: "CDRM", pkgConfig: "libdrm",
                       providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev",
                       providers: [.apt(["libevdev-dev"])]),
        // Linux kernel UAPI headers (framebuffer, VT): no library to link.
        .systemLibrary(name: "CKernel"),
        // epoll and eventfd, which Swift's Glibc module does not export.
        .systemLibrary(name: "CPosix"),

        // The system-call layer: owned descriptors, typed errno, EINTR in one place, the
        // monotonic clock, epoll. Everything that waits on the kernel goes through it.
        .target(name: "Posix", dependencies: ["CPosix"], swiftSettings: codeGeneration),
        .target(name: "Raster", dependencies: ["CPNG", "CJPEG", "CWebP", "CPixelStores", "Posix"], swiftSettings: codeGeneration),
        .target(name: "CPixelStores"),
        .target(name: "LottieModel", dependencies: ["CZlib", "Posix"], swiftSettings: codeGeneration),
        .target(name: "LottieRender", dependencies: ["LottieModel", "Raster", "Text", "Posix"], swiftSettings: codeGeneration),
        .target(name: "Player", dependencies: ["LottieModel", "Posix"], swiftSettings: codeGeneration),
        .target(name: "Display", dependencies: ["Raster", "CDRM", "CKernel", "Posix"], swiftSettings: codeGeneration),
        // libcurl's headers (libcurl4-openssl-dev) and its functions, opened with dlopen when a
        // download starts: commands that never download do not load it (Sources/CCurl/include).
        .target(name: "CCurl"),
        .target(name: "Download", dependencies: ["CCurl", "Posix"], swiftSettings: codeGeneration),
        .target(name: "Input", dependencies: ["CEvdev"], swiftSettings: codeGeneration),
        .target(name: "Control", dependencies: ["CKernel", "Download", "Posix"], swiftSettings: codeGeneration),
        // Fonts (fontconfig), shaping (HarfBuzz), bidi (FriBidi) and line layout to Raster paths.
        // Their headers (libfreetype-dev, libharfbuzz-dev, libfontconfig-dev, libfribidi-dev) and
        // functions, opened with dlopen when text is first drawn (Sources/CTextLibraries/include).
        .target(name: "CTextLibraries", cSettings: [.unsafeFlags([freeTypeHeaders])]),
        .target(name: "Text", dependencies: ["Raster", "CTextLibraries"], swiftSettings: codeGeneration),
        .target(name: "Kiosk", dependencies: ["LottieModel", "LottieRender", "Player", "Raster", "Download", "Posix", "Text"], swiftSettings: codeGeneration),
        // The fuzz target (tools/fuzz builds it with libFuzzer); a plain build replays inputs.
        .executableTarget(name: "LottieFuzz", dependencies: ["LottieModel", "LottieRender", "Raster"],
                          swiftSettings: codeGeneration),
        .executableTarget(name: "buoy", dependencies: [
            "LottieModel", "LottieRender", "Raster", "Player", "Display", "Download", "Input", "Kiosk", "Control", "Posix",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: codeGeneration),

        .testTarget(name: "RasterTests", dependencies: ["Raster", "CJPEG", "CWebP"]),
        .testTarget(name: "LottieModelTests", dependencies: ["LottieModel"]),
        // Regressions/ holds hostile inputs (fuzzer finds) the tests read from their path.
        .testTarget(name: "LottieRenderTests", dependencies: ["LottieRender", "LottieModel", "Raster"], exclude: ["Regressions"]),
        .testTarget(name: "DisplayTests", dependencies: ["Display", "Raster"]),
        // The loopback HTTP server the tests start is a script beside them, run from its path.
        .testTarget(name: "DownloadTests", dependencies: ["Download"], exclude: ["http_server.py"]),
        .testTarget(name: "ControlTests", dependencies: ["Control", "Download"]),
        .testTarget(name: "PosixTests", dependencies: ["Posix"]),
        // Runs the built `buoy` command against the download tests' loopback server.
        .testTarget(name: "CommandTests", dependencies: ["buoy", .product(name: "TOMLKit", package: "TOMLKit")], exclude: ["pty_run.py"]),
        .testTarget(name: "KioskTests", dependencies: ["Kiosk", "LottieModel", "LottieRender", "Player", "Raster", "Download"]),
        .testTarget(name: "TextTests", dependencies: ["Text", "Raster", "Kiosk", "LottieModel", "LottieRender"]),
        .testTarget(name: "PlayerTests", dependencies: ["Player", "LottieModel", "LottieRender", "Raster"]),
    ],
    swiftLanguageModes: [.v6]
)
