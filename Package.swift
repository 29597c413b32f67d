// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LaunchPolicy",
    // The oldest systems the library's code runs on: it writes strings in place with
    // `String(unsafeUninitializedCapacity:initializingUTF8With:)`, which came with iOS 14, macOS 11, tvOS 14 and
    // watchOS 7. Below these, SwiftPM's defaults (iOS 12, macOS 10.13) would refuse to build the package.
    platforms: [.iOS(.v14), .macOS(.v11), .tvOS(.v14), .watchOS(.v7)],
    products: [
        .library(name: "LaunchPolicy", targets: ["LaunchPolicy"]),
        .library(name: "LaunchPolicyDelivery", targets: ["LaunchPolicyDelivery"]),
        .executable(name: "launch-policy", targets: ["launch-policy"]),
        .executable(name: "policy-lint", targets: ["policy-lint"]),
    ],
    dependencies: [
        // Command-line parsing for the two executables only; the library depends on nothing but libyaml, libc and its
        // own C target.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Ed25519 signatures of delivered policies, for the delivery module only: the core library stays without it.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // The system libyaml, nothing else. Only the YAML reader imports it.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The system's extended-attribute calls (<sys/xattr.h>), with one signature on every system: policy-lint's
        // `--fix` keeps a file's attributes. Part of the C library, so nothing to install.
        .systemLibrary(name: "CFileAttributes"),
        // SHA-256's block function on the processor's SHA instructions (x86-64's and arm64's), for the rollout
        // bucket: under 200 instructions a block against about 3,600 in Swift, on the processors that have them
        // (CSHA256.h says which).
        .target(name: "CSHA256"),
        .target(
            name: "LaunchPolicy",
            dependencies: ["CYAML", "CFileAttributes", "CSHA256"]
        ),
        // Remote delivery: fetch over HTTP(S), cache the last-known-good policy, verify Ed25519 signatures. Its own
        // module, so that apps that bundle their policy take no networking or cryptography code.
        .target(
            name: "LaunchPolicyDelivery",
            dependencies: [
                "LaunchPolicy",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/Delivery"
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
                "LaunchPolicy", "LaunchPolicyDelivery", "CommandLineSupport",
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
        // Helpers the test targets share: ../shared/conformance, seeded randomness, texts with marked places.
        .target(
            name: "TestSupport",
            dependencies: ["LaunchPolicy"],
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
        .testTarget(
            name: "SimulationTests",
            dependencies: ["LaunchPolicy", "TestSupport"]
        ),
        // Delivery against a real HTTP server on 127.0.0.1 that the tests start.
        .testTarget(
            name: "DeliveryTests",
            dependencies: ["LaunchPolicy", "LaunchPolicyDelivery", "TestSupport"]
        ),
        // Runs the built executables as a user would: arguments in, output and exit status out; and what they share.
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["LaunchPolicy", "CommandLineSupport", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
