// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LaunchPolicy",
    products: [
        .library(name: "LaunchPolicy", targets: ["LaunchPolicy"]),
        .executable(name: "launch-policy", targets: ["launch-policy"]),
        .executable(name: "policy-lint", targets: ["policy-lint"]),
    ],
    dependencies: [
        // Command-line parsing for the two executables only; the library depends on nothing but libyaml.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The system libyaml, nothing else. Only the YAML reader imports it.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(
            name: "LaunchPolicy",
            dependencies: ["CYAML"]
        ),
        // What both executables share: usage-error exit status, standard-error output, argument conformances.
        .target(
            name: "CommandLineSupport",
            dependencies: [
                "LaunchPolicy",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "launch-policy",
            dependencies: [
                "LaunchPolicy", "CommandLineSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "policy-lint",
            dependencies: [
                "LaunchPolicy", "CommandLineSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers shared by the test targets: finding ../shared/conformance, seeded randomness.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "YAMLTests",
            dependencies: ["LaunchPolicy", "TestSupport"]
        ),
        .testTarget(
            name: "PolicyTests",
            dependencies: ["LaunchPolicy", "TestSupport"]
        ),
        .testTarget(
            name: "VersionsTests",
            dependencies: ["LaunchPolicy", "TestSupport"]
        ),
        .testTarget(
            name: "EvaluationTests",
            dependencies: ["LaunchPolicy", "TestSupport"]
        ),
        .testTarget(
            name: "LaunchTests",
            dependencies: ["LaunchPolicy", "TestSupport"]
        ),
        .testTarget(
            name: "LintTests",
            dependencies: ["LaunchPolicy", "TestSupport"]
        ),
        // Runs the built executables as a user would: arguments in, output and exit status out.
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["LaunchPolicy", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
