import Foundation
@testable import LaunchPolicy
import Testing
import TestSupport

/// LaunchGate and Gandalf configurations, through the mapping and the same interpreter as native policies.
@Suite struct LaunchGateEvaluationTests {
    private func configuration(_ json: String) throws -> Policy {
        let result = AutomaticPolicyParser(expectsLaunchGateJSON: true).parse(Data(json.utf8))
        return try #require(result.usablePolicy, "\(result.diagnostics)")
    }

    private func example(_ name: String) throws -> Policy {
        let url = Conformance.packageRoot.appendingPathComponent("policies/launchgate/\(name)")
        return try configuration(String(contentsOf: url, encoding: .utf8))
    }

    @Test func versionsCompareAsNumbersNotStrings() throws {
        let policy = try example("gandalf-and-launchgate.json")
        // LaunchGate compares "1.9" < "1.10" as strings (false) and lets 1.9 in.
        #expect(policy.evaluate(try LaunchContext(platform: .ios, appVersion: "1.9")).gate?.rule == "requiredUpdate-ios")
        #expect(policy.evaluate(try LaunchContext(platform: .ios, appVersion: "1.10")).gate == nil)
    }

    /// LaunchGate reads its `ios` section on every device the app runs on: an app that reports iPadOS on an iPad is
    /// gated by it too, sent to the iOS store listing, and the converted policy says so. Android is left alone.
    @Test func theIOSSectionGatesIPadsToo() throws {
        let json = #"{"ios": {"requiredUpdate": {"minimumVersion": "2.0", "message": "Update."}}}"#
        let policy = try configuration(json)
        #expect(policy.evaluate(try LaunchContext(platform: .ipados, appVersion: "1.9")).gate?.rule == "requiredUpdate")
        #expect(policy.evaluate(try LaunchContext(platform: .ipados, appVersion: "2.0")).gate == nil)
        #expect(policy.evaluate(try LaunchContext(platform: .android, appVersion: "1.9")).gate == nil)
        let converted = try #require(LaunchGateConversion.convert(Data(json.utf8), name: "config.json").policy)
        #expect(converted.contains("platform: [ios, ipados]"), "\(converted)")
    }

    @Test func gandalfComparesVersionCodes() throws {
        let policy = try configuration("""
            {"android": {"requiredUpdate": {"minimumVersion": "120", "message": "r"},
                         "optionalUpdate": {"optionalVersion": "130", "message": "o"}}}
            """)
        let old = policy.evaluate(try LaunchContext(platform: .android, appVersion: "4.0", build: "119"))
        #expect(old.gate?.rule == "requiredUpdate")
        let recent = policy.evaluate(try LaunchContext(platform: .android, appVersion: "4.0", build: "125"))
        #expect(recent.gate == nil)
        #expect(recent.prompts.map(\.rule) == ["optionalUpdate"])
        #expect(policy.evaluate(try LaunchContext(platform: .android, build: "130")).prompts.isEmpty)
    }

    @Test func aSatisfiedRequiredUpdateNoLongerHidesABlockingAlert() throws {
        let policy = try configuration("""
            {"ios": {"alert": {"message": "Down for maintenance.", "blocking": true},
                     "requiredUpdate": {"minimumVersion": "2.0", "message": "Update."}}}
            """)
        let decision = policy.evaluate(try LaunchContext(platform: .ios, appVersion: "3.0"))
        #expect(decision.gate?.rule == "alert")
        #expect(decision.gate?.action == .block)
        #expect(decision.gate?.text == "Down for maintenance.")
    }

    @Test func aNonBlockingAlertShowsOncePerMessageText() throws {
        let json = #"{"ios": {"alert": {"message": "Maintenance tonight.", "blocking": false}}}"#
        let policy = try configuration(json)
        let context = try LaunchContext(platform: .ios, appVersion: "3.0")
        let first = policy.evaluate(context)
        #expect(first.notices.map(\.rule) == ["alert"])
        var memory = DisplayMemory()
        memory.record(first.notices[0], at: context.now)
        #expect(policy.evaluate(context, memory: memory).notices.isEmpty)
        let edited = try configuration(json.replacingOccurrences(of: "tonight", with: "tomorrow"))
        #expect(edited.evaluate(context, memory: memory).notices.map(\.rule) == ["alert"])
    }

    @Test func anOptionalUpdateIsAskedOncePerOptionalVersion() throws {
        let policy = try example("launchgate.json")
        let context = try LaunchContext(platform: .ios, appVersion: "2.5")
        let first = policy.evaluate(context)
        #expect(first.prompts.map(\.rule) == ["optionalUpdate"])
        #expect(first.prompts.first?.text == "A new version of Lantern is available.")
        var memory = DisplayMemory()
        for directive in first.shown { memory.record(directive, at: context.now) }
        #expect(policy.evaluate(context, memory: memory).prompts.isEmpty)

        let raised = try configuration("""
            {"ios": {"optionalUpdate": {"optionalVersion": "2.7", "message": "A new version of Lantern is available."}}}
            """)
        #expect(raised.evaluate(context, memory: memory).prompts.map(\.rule) == ["optionalUpdate"],
            "raising optionalVersion asks again, as LaunchGate does")
    }
}
