/// What is known about this launch: its kind, how many launches came before, the versions the app came from, how
/// long it has been away, and what opened it. The launch tracker fills it in; tests and simulations write it by hand.
///
/// Every field is optional: a condition on a field the launch does not know is false, never an error.
public struct LaunchInfo: Sendable, Hashable {
    /// First launch, upgrade, downgrade or a normal launch.
    public var kind: LaunchKind?
    /// How many launches there have been, this one included.
    public var count: Int?
    /// The app version of the previous launch.
    public var previousVersion: String?
    /// The app version first installed.
    public var installVersion: String?
    /// Whole days since the previous launch.
    public var daysSinceLastLaunch: Int?
    /// Whole days since the first launch.
    public var daysSinceInstall: Int?
    /// What opened the app.
    public var source: LaunchSource?

    /// Creates launch information; every field defaults to unknown.
    public init(
        kind: LaunchKind? = nil, count: Int? = nil, previousVersion: String? = nil, installVersion: String? = nil,
        daysSinceLastLaunch: Int? = nil, daysSinceInstall: Int? = nil, source: LaunchSource? = nil
    ) {
        self.kind = kind
        self.count = count
        self.previousVersion = previousVersion
        self.installVersion = installVersion
        self.daysSinceLastLaunch = daysSinceLastLaunch
        self.daysSinceInstall = daysSinceInstall
        self.source = source
    }
}
