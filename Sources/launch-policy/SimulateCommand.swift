import ArgumentParser
import CommandLineSupport
import Foundation
import LaunchPolicy

/// `launch-policy simulate`: whom a policy hits across the installed base.
///
/// Exit status: 0 with a report, 1 when the policy has errors, 2 for a usage error or a population file with errors.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a policy over an installed base: whom each rule and outcome reaches.",
        discussion: """
            The population is CSV: a header naming context keys (platform, app-version, build, os-version, locale, \
            region, launch, …, install-id, now), attributes.NAME columns, and users (how many users share the row: \
            at most a billion, and a trillion in all). Every user is evaluated as at a launch with nothing shown \
            before. Rollouts draw install ids \
            deterministically per row (simulated-LINE-K), so the answer is the same every run: user by user for at \
            most a million users of a row and ten million in all, a larger row split as its first users are. A \
            population file holds at most 64 MiB. Exit status: 0, 1 \
            when the policy has errors, 2 for a usage error or a population with errors.
            """)

    private static let name = "launch-policy simulate"
    /// The most a population file may hold: rows share contexts (`users`), so a real one is far smaller, and a
    /// device or a pipe that never ends (`/dev/zero`) is refused instead of read until memory runs out.
    static let populationLimit = 1 << 26

    @Argument(help: "The policy file (YAML), or a LaunchGate/Gandalf configuration (JSON).")
    var policy: String
    @Option(help: ArgumentHelp("The installed base, as CSV.", valueName: "file.csv"))
    var population: String
    @Option(help: "The time of the launches, ISO 8601 with a time zone (default: now; a row's now column wins).")
    var now: String?
    @Option(help: "text (default), json or csv.")
    var format: SimulationFormat = .text
    @Option(help: ArgumentHelp("Also draw a stacked bar per app version into this SVG file.", valueName: "file.svg"))
    var svg: String?

    enum SimulationFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, csv
    }

    func run() throws {
        var time = Date()
        if let now {
            // Read as eval and test cases read `now`.
            do {
                time = try LaunchContext(values: ["now": .text(now)]).now
            } catch {
                throw usageError(Self.name, "--now \"\(now)\" is not valid: \(error.reason)")
            }
        }
        let parsedPolicy = try readPolicyFile(policy, command: Self.name)
        let bytes = try readInputFile(population, what: "population", command: Self.name, limit: Self.populationLimit)
        let read = Population.read(csv: bytes)
        printDiagnostics(read.diagnostics, file: population, source: bytes)
        if read.diagnostics.containsErrors { throw ExitCode(2) }

        let simulation = Simulation(policy: parsedPolicy, population: read.population, now: time)
        switch format {
        case .text: print(simulation.report)
        case .json: printJSON(simulation.json)
        case .csv: print(simulation.csv, terminator: "")
        }
        if let svg {
            let title = "\(URL(fileURLWithPath: policy).lastPathComponent) over \(URL(fileURLWithPath: population).lastPathComponent)"
            do {
                try Data(simulation.svg(title: title).utf8).write(to: URL(fileURLWithPath: svg), options: .atomic)
            } catch {
                throw usageError(Self.name, "cannot write the chart \(svg): \(AtomicFile.reason(error))")
            }
        }
    }
}
