import Foundation

/// What is known about this launch: its kind, how many launches there have been, the version the app came from,
/// when it was installed and last launched, and what opened it. ``LaunchTracker`` fills it in; tests and
/// simulations write it by hand. It fills the launch fields of ``LaunchContext``.
///
/// Every field is optional: a condition on a field the launch does not know is false, never an error.
public struct LaunchInfo: Sendable, Hashable {
    /// First launch, upgrade, downgrade or a normal launch.
    public var kind: LaunchKind?
    /// How many launches there have been, this one included.
    public var count: Int?
    /// The app version of the previous launch, as the app reported it.
    public var previousVersion: String?
    /// The build of the previous launch, as the app reported it.
    public var previousBuild: String?
    /// The app version first installed (the first version ever recorded).
    public var installVersion: String?
    /// When the app was first launched.
    public var firstLaunchDate: Date?
    /// When the app was last launched before this launch.
    public var previousLaunchDate: Date?
    /// Whole days of elapsed time since the previous launch (24-hour periods, whatever the time zones and clock
    /// changes in between; 0 when the clock moved back).
    public var daysSinceLastLaunch: Int?
    /// Whole days of elapsed time since the first launch, counted like ``daysSinceLastLaunch``.
    public var daysSinceInstall: Int?
    /// What opened the app.
    public var source: LaunchSource?

    /// Creates launch information; every field defaults to unknown.
    public init(
        kind: LaunchKind? = nil, count: Int? = nil, previousVersion: String? = nil, previousBuild: String? = nil,
        installVersion: String? = nil, firstLaunchDate: Date? = nil, previousLaunchDate: Date? = nil,
        daysSinceLastLaunch: Int? = nil, daysSinceInstall: Int? = nil, source: LaunchSource? = nil
    ) {
        self.kind = kind
        self.count = count
        self.previousVersion = previousVersion
        self.previousBuild = previousBuild
        self.installVersion = installVersion
        self.firstLaunchDate = firstLaunchDate
        self.previousLaunchDate = previousLaunchDate
        self.daysSinceLastLaunch = daysSinceLastLaunch
        self.daysSinceInstall = daysSinceInstall
        self.source = source
    }

    /// Whole days of elapsed time from `start` to `end`; 0 when `end` is earlier, and at most the largest number a
    /// context holds (``VersionKind/maximumVersionCode``), which a date from ages ago would pass.
    static func wholeDays(from start: Date, to end: Date) -> Int {
        let seconds = end.timeIntervalSince(start)
        guard seconds > 0, seconds.isFinite else { return 0 }
        return Int(min(seconds / 86_400, Double(VersionKind.maximumVersionCode)).rounded(.down))
    }
}
