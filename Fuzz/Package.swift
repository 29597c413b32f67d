// swift-tools-version:6.0
import PackageDescription

// The fuzz target: libFuzzer feeds bytes through the whole pipeline (reader, decoder, policy-lint, interpreter) and
// through the state an app reads at launch (launch history, display memory, the delivery cache).
// Its own package, so that the sanitizer build never touches the main one; `run.sh` builds and runs it.
let package = Package(
    name: "LaunchPolicyFuzz",
    dependencies: [
        .package(name: "LaunchPolicy", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "PolicyFuzzer",
            dependencies: [
                .product(name: "LaunchPolicy", package: "LaunchPolicy"),
                .product(name: "LaunchPolicyDelivery", package: "LaunchPolicy"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
