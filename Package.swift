// swift-tools-version:6.0
// Buoy: a Lottie download screen for embedded Linux.
// Modules follow the data flow: LottieModel (parse) → LottieRender (evaluate a frame)
// → Raster (paths, coverage, paint, compositing, pixel formats) → the `buoy` executable.
import PackageDescription

let package = Package(
    name: "Buoy",
    products: [
        .executable(name: "buoy", targets: ["buoy"]),
        .library(name: "LottieModel", targets: ["LottieModel"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "LottieRender", targets: ["LottieRender"]),
        .library(name: "Player", targets: ["Player"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // System C libraries from Debian's -dev packages, found through pkg-config.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),

        .target(name: "Raster", dependencies: ["CPNG"]),
        .target(name: "LottieModel"),
        .target(name: "LottieRender", dependencies: ["LottieModel", "Raster", "CFreeType"]),
        .target(name: "Player", dependencies: ["LottieModel"]),
        .executableTarget(name: "buoy", dependencies: [
            "LottieModel", "LottieRender", "Raster",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "RasterTests", dependencies: ["Raster"]),
        .testTarget(name: "LottieModelTests", dependencies: ["LottieModel"]),
        .testTarget(name: "LottieRenderTests", dependencies: ["LottieRender", "LottieModel", "Raster"]),
        .testTarget(name: "PlayerTests", dependencies: ["Player", "LottieModel", "LottieRender", "Raster"]),
    ],
    swiftLanguageModes: [.v5]
)
