import Foundation
@testable import LaunchPolicy
import Testing

/// Every public error says what went wrong through `localizedDescription` as well as `description`: an app that logs
/// `error.localizedDescription`, as most do, would otherwise log "The operation could not be completed".
@Suite struct ErrorDescriptionTests {
    static func errors() throws -> [any Error & CustomStringConvertible] {
        var errors: [any Error & CustomStringConvertible] = []
        do { _ = try VersionRange("> 2.x.1") } catch { errors.append(error) }
        do { _ = try LaunchContext(platform: .ios, appVersion: "two") } catch { errors.append(error) }
        if case .failure(let error) = PolicyLinter.time("tomorrow") { errors.append(error) }
        do { _ = try PolicyFiles.collect(["/no/such/policy.yaml"]) } catch { errors.append(error) }
        errors.append(DisplayMemoryError(url: URL(fileURLWithPath: "/tmp/m.json"), reason: "it is cut short"))
        errors.append(LaunchHistoryStoreError.corrupt(reason: "it is cut short", keptAt: nil))
        errors.append(StateFileLockTimeout(lockFile: URL(fileURLWithPath: "/tmp/h.json.lock"), seconds: 5))
        return errors
    }

    @Test func everyPublicErrorDescribesItselfToFoundation() throws {
        let errors = try Self.errors()
        #expect(errors.count == 7, "an error the list means to check was not thrown")
        for error in errors {
            #expect(error.localizedDescription == error.description)
            #expect(!error.localizedDescription.contains("could not be completed"))
        }
    }

    @Test func aFileThatIsNotRegularIsSaidToBeSo() {
        #expect(AtomicFile.reason(AtomicFile.NotRegularFile()) == "not a regular file")
        #expect(AtomicFile.NotRegularFile().localizedDescription == "not a regular file")
    }
}
