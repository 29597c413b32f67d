// swift-tools-version:6.0
import PackageDescription

// Benchmarks of the launch path and of policy-lint against the libyaml floor and the peers (Yams, Foundation JSON).
// Its own package, so that Yams never reaches the product: `bash Benchmarks/run.sh` builds and runs everything.
let package = Package(
    name: "LaunchPolicyBenchmarks",
    dependencies: [
        .package(name: "LaunchPolicy", path: ".."),
        // The peer we measure against, in its own executable: it carries its own copy of libyaml's symbols.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // The system libyaml again, under another module name, for the floor: a raw event scan.
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Timing, memory and the result line both executables print.
        .target(name: "BenchmarkSupport"),
        .executableTarget(
            name: "policy-benchmarks",
            dependencies: [
                "BenchmarkSupport", "CLibYAML",
                .product(name: "LaunchPolicy", package: "LaunchPolicy"),
            ]
        ),
        .executableTarget(
            name: "yams-benchmark",
            dependencies: ["BenchmarkSupport", .product(name: "Yams", package: "Yams")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
