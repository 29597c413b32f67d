import Foundation

/// LaunchGate's parser protocol, unchanged: a custom parser written for LaunchGate compiles against LaunchPolicy and
/// plugs into the same engine through ``LaunchGateMapping``.
public protocol LaunchGateParser {
    /// Parses a configuration file; nil when it cannot.
    func parse(_ jsonData: Data) -> LaunchGateConfiguration?
}

/// What a LaunchGate (iOS) or Gandalf (Android) configuration says for one platform.
public struct LaunchGateConfiguration: Sendable {
    /// A message to show; blocking or not.
    public var alert: AlertConfiguration?
    /// A version below which the user is asked to update.
    public var optionalUpdate: UpdateConfiguration?
    /// A version below which the user must update.
    public var requiredUpdate: UpdateConfiguration?

    /// Creates a configuration.
    public init(
        alert: AlertConfiguration? = nil, optionalUpdate: UpdateConfiguration? = nil,
        requiredUpdate: UpdateConfiguration? = nil
    ) {
        self.alert = alert
        self.optionalUpdate = optionalUpdate
        self.requiredUpdate = requiredUpdate
    }
}

/// An alert: its message, and whether it blocks the app.
public struct AlertConfiguration: Sendable {
    /// The text shown.
    public var message: String
    /// Whether the user is locked out while it shows.
    public var blocking: Bool

    /// Creates an alert; nil for an empty message, as in LaunchGate.
    public init?(message: String, blocking: Bool) {
        guard !message.isEmpty else { return nil }
        self.message = message
        self.blocking = blocking
    }
}

/// An update threshold and its message.
public struct UpdateConfiguration: Sendable {
    /// The version: a marketing version for LaunchGate, a versionCode for Gandalf.
    public var version: String
    /// The text shown.
    public var message: String

    /// Creates an update configuration; nil for an empty version or message, as in LaunchGate.
    public init?(version: String, message: String) {
        guard !version.isEmpty, !message.isEmpty else { return nil }
        self.version = version
        self.message = message
    }
}
