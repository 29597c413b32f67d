import Foundation
import LaunchPolicy
@_spi(Fuzzing) import LaunchPolicyDelivery

/// libFuzzer's entry point: one input, the whole pipeline. Any trap, sanitizer report, timeout or memory blow-up
/// here is a bug in the library, whatever the bytes are.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    PolicyPipeline.run(bytes)
    return 0
}

/// What an app and CI do with a policy file, in the order they do it, and what an app does with its stored state.
enum PolicyPipeline {
    /// A fixed "now", so that a finding reproduces whatever day it is replayed.
    static let now = Date(timeIntervalSince1970: 1_795_176_000)  // 2026-11-20T12:00:00Z

    static func run(_ bytes: [UInt8]) {
        // The app's path: read once, decode in whichever format the bytes are, evaluate.
        let parsed = AutomaticPolicyParser().parse(Data(bytes))
        // CI's path: policy-lint, as a policy and as a LaunchGate JSON file, and its output formats.
        let linter = PolicyLinter(now: now)
        var reports = [linter.lint(bytes, path: "fuzz.yaml"), linter.lint(bytes, path: "fuzz.json")]
        // What the policy shows over the contexts below, as an app records it.
        var shown = DisplayMemory()
        if let policy = parsed.usablePolicy {
            // The same bytes as the policy's tests file.
            reports.append(linter.lintTests(bytes, path: "fuzz.tests.yaml", policy: policy, policyPath: "fuzz.yaml"))
            // What a reviewer and a release manager read: the rules in words, a simulation over a small base.
            _ = policy.ruleDescriptions
            let simulation = Simulation(policy: policy, population: population, now: now, rolloutDrawLimit: 64)
            _ = (simulation.report, simulation.json.text, simulation.csv, simulation.svg(title: "fuzz"))
            for context in contexts {
                let decision = policy.evaluate(context)
                // The explanation is worked out when read: read all of it, as `launch-policy eval` does.
                _ = decision.report
                // As `launch-policy eval --format json` writes it, in pieces, which are the whole text together.
                let json = decision.json
                var pieces: [UInt8] = []
                json.write(inPiecesOf: 64) { pieces += $0 }
                precondition(pieces == Array(json.text.utf8), "a JSON document written in pieces is not its text")
                var memory = DisplayMemory()
                for directive in decision.shown {
                    memory.record(directive, at: now)
                    shown.record(directive, at: now)
                }
                _ = policy.evaluate(context, memory: memory)
            }
        }
        // The same bytes as a LaunchGate configuration to convert, and as a population file.
        if let converted = LaunchGateConversion.convert(Data(bytes), name: "fuzz.json").policy {
            convertedPolicy(converted, from: bytes)
        }
        let people = Population.read(csv: Data(bytes))
        if let policy = parsed.usablePolicy, people.population.rows.count <= 64 {
            _ = Simulation(policy: policy, population: people.population, now: now, rolloutDrawLimit: 64).report
        }
        // The same bytes as policy-lint's `.policy-lint.yaml`, applied to a policy that each of its settings changes.
        let configuration = LintConfiguration.parse(bytes).configuration
        let configured = PolicyLinter(configuration: configuration, now: now)
        reports.append(configured.lint(configuredPolicy, path: "configured.yaml"))
        // And as `launch-policy eval --context`'s file: a context that reads evaluates the policy.
        let file = LaunchContextFile.values(Data(bytes))
        if let policy = parsed.usablePolicy, !file.diagnostics.containsErrors,
            let context = try? LaunchContext(values: file.values.mapValues(\.value))
        {
            _ = policy.evaluate(context).report
        }
        let results = LintResults(reports: reports)
        for format in LintOutputFormat.allCases {
            let output = results.formatted(format, colored: true)
            // JSON and SARIF are put together a report at a time, as policy-lint prints them: still one document.
            if format == .json || format == .sarif {
                precondition((try? JSONSerialization.jsonObject(with: Data(output.utf8))) != nil,
                    "policy-lint's \(format) output is not JSON")
            }
        }
        if let policy = parsed.usablePolicy { claimsHold(reports[0], policy: policy) }
        fixed(reports[0], linter: linter, path: "fuzz.yaml")
        fixed(reports[1], linter: linter, path: "fuzz.json")
        tabbedLineAppended(bytes)
        separatingTab(bytes)
        launchState(bytes, policy: parsed.usablePolicy, shown: shown)
    }

    /// A line of a tab put after the last line of a stream that reads changes nothing read: YAML 1.2 reads it as a
    /// comment line, and after a block scalar's text as one that ends the scalar (`TabbedBlanks`). The one answer
    /// besides is YAML 1.2's refusal of a tab in the indentation of a block scalar with no text, at that line.
    static func tabbedLineAppended(_ bytes: [UInt8]) {
        guard bytes.last == UInt8(ascii: "\n") else { return }
        let before = placedEvents(bytes)
        guard before.error == nil else { return }
        let after = placedEvents(bytes + [UInt8(ascii: "\t"), UInt8(ascii: "\n")])
        if let error = after.error {
            precondition(error.range.start.line == line(ofByte: bytes.count, in: bytes)
                && error.message.contains("inside a scalar"),
                "a tabbed line after the stream made it unreadable: \(error)")
            return
        }
        precondition(after.events == before.events, "a tabbed line after the stream changed what it reads: "
            + "\(zip(before.events, after.events).first { $0 != $1 }.map { "\($0) became \($1)" } ?? "events")")
    }

    /// The space after the first `-`, `?` or `:` that starts a line's text, made a tab in a stream that reads: YAML
    /// 1.2 reads it as the space (`TabbedBlanks`), or, before a block collection on that line, refuses it there. So
    /// for the last space before the text of the first line of text that starts with spaces, refused where it indents
    /// a key or a block collection, or too few spaces precede it. In a scalar a tab is text: scalars are compared with
    /// their tabs as spaces.
    static func separatingTab(_ bytes: [UInt8]) {
        let space = UInt8(ascii: " ")
        let indicators = [UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":")]
        var afterIndicator: Int?
        var indentation: Int?
        var lineStart = 0
        while lineStart < bytes.count, afterIndicator == nil || indentation == nil {
            var index = lineStart
            while index < bytes.count, bytes[index] == space { index += 1 }
            // A line of text: a line of blanks (spaces, then tabs) is read by where it lies (`TabbedBlanks`).
            var text = index
            while text < bytes.count, bytes[text] == UInt8(ascii: "\t") { text += 1 }
            if indentation == nil, index > lineStart, text < bytes.count,
                ![UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#")].contains(bytes[text])
            {
                indentation = index - 1
            }
            if afterIndicator == nil, index + 1 < bytes.count, indicators.contains(bytes[index]),
                bytes[index + 1] == space
            {
                afterIndicator = index + 1
            }
            while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            lineStart = index + 1
        }
        guard afterIndicator != nil || indentation != nil else { return }
        let before = placedEvents(bytes, tabsAsSpaces: true)
        guard before.error == nil else { return }
        for (place, refusal) in [
            (afterIndicator, "which YAML allows after spaces only"), (indentation, "YAML indents with spaces only"),
        ] {
            guard let place else { continue }
            var tabbed = bytes
            tabbed[place] = UInt8(ascii: "\t")
            let after = placedEvents(tabbed, tabsAsSpaces: true)
            if let error = after.error {
                // libyaml's own refusal of a tab in a block scalar's indentation names no column of ours.
                precondition(error.range.start.line == line(ofByte: place, in: bytes)
                    && (error.message.hasSuffix(refusal) || error.message.contains("tab character")),
                    "a tab for a space made the stream unreadable: \(error)")
                continue
            }
            // At the start of a literal block scalar's first line of text the tab is text, and the spaces before it
            // the scalar's indentation, one less, which changes which lines are its text and what they hold (a line
            // of spaces, a line short of the old indentation): what the scalar reads then is held by the reader's
            // tests (`TabbedBlankLineTests`) and the YAML test suite, and here only that its text starts with the tab.
            if after.events != before.events, place == indentation, startsLiteralText(tabbed, at: place) { continue }
            // A tab in place of the only space before a literal scalar's first text that already starts with a tab
            // leaves the text at column 0, which YAML 1.2 reads at the top of a document and libyaml reads as no text
            // (docs/yaml-reader.md; a known difference).
            if after.events != before.events, place == indentation, place == 0 || [10, 13].contains(bytes[place - 1]),
                startsLiteralText(bytes, at: place)
            {
                continue
            }
            precondition(after.events == before.events, "a tab for a space changed what the stream reads: "
                + "\(zip(before.events, after.events).first { $0 != $1 }.map { "\($0) became \($1)" } ?? "events")")
        }
    }

    /// The line (1-based) of a byte, lines broken at LF, CR and CR LF.
    private static func line(ofByte offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes[..<offset].indices.filter { index in
            bytes[index] == UInt8(ascii: "\n")
                || (bytes[index] == UInt8(ascii: "\r")
                    && (index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "\n")))
        }.count
    }

    /// Whether the last literal block scalar that starts before `place` in `input` reads a text whose first line that
    /// is not empty starts with a tab.
    private static func startsLiteralText(_ input: [UInt8], at place: Int) -> Bool {
        var starts = false
        _ = input.withUnsafeBytes { buffer in
            YAMLEventReader(limits: YAMLLimits(maximumDocuments: .max)).readEvents(buffer) { event in
                if case .scalar(let scalar, _, _) = event.kind, scalar.style == .literal,
                    event.range.start.offset < place
                {
                    starts = scalar.text.drop { $0 == "\n" }.first == "\t"
                }
                return true
            }
        }
        return starts
    }

    /// Each event of a stream, and where a node starts and ends; a collection's and a document's end may move with a
    /// line put after it, and so may a node written as nothing (libyaml places it where the next token is).
    private static func placedEvents(_ input: [UInt8], tabsAsSpaces: Bool = false) -> (
        events: [String], error: Diagnostic?
    ) {
        var events: [String] = []
        let error = input.withUnsafeBytes { buffer in
            YAMLEventReader(limits: YAMLLimits(maximumDocuments: .max)).readEvents(buffer) { event in
                var kind = event.kind
                if tabsAsSpaces, case .scalar(var scalar, let anchor, let tag) = kind {
                    scalar.text = scalar.text.replacingOccurrences(of: "\t", with: " ")
                    kind = .scalar(scalar, anchor: anchor, tag: tag)
                }
                switch kind {
                case .scalar(let scalar, _, _) where scalar.text.isEmpty && scalar.style == .plain:
                    events.append("\(kind)")
                case .scalar, .alias, .sequenceStart, .mappingStart:
                    events.append("\(kind) \(event.range.start.offset)-\(event.range.end.offset)")
                default:
                    events.append("\(kind)")
                }
                return true
            }
        }
        return (events, error)
    }

    /// What `launch-policy convert` promises for a configuration it converts: the policy it writes reads back
    /// without errors, passes the tests written into it, and decides as the configuration itself does when an app
    /// runs the JSON file, at every launch of ``contexts`` and whatever was shown before.
    static func convertedPolicy(_ text: String, from bytes: [UInt8]) {
        guard let policy = YAMLPolicyParser().parse(Data(text.utf8)).usablePolicy else {
            preconditionFailure("the converted policy has errors")
        }
        let failures = PolicyTestRunner.failures(policy, defaultNow: now)
        precondition(failures.isEmpty, "the converted policy fails its own test: \(failures.first!.message)")
        guard let original = LaunchGateJSONParser().parse(Data(bytes)).usablePolicy else {
            preconditionFailure("a configuration that converts does not run as JSON")
        }
        for context in contexts {
            var memory = DisplayMemory()
            for _ in 0..<2 {
                let expected = original.evaluate(context, memory: memory)
                let decided = policy.evaluate(context, memory: memory)
                precondition(decided.shown == expected.shown && decided.grants == expected.grants,
                    "the converted policy decides \(decided.shown) where the configuration decides \(expected.shown)")
                // The second launch, after what the first showed.
                for directive in expected.shown { memory.record(directive, at: now) }
            }
        }
    }

    /// What lint claims about rules, held to what the interpreter decides at each launch of ``contexts``: a rule
    /// whose whole condition lint says never matches matches at none, and a rule lint says is shadowed matches only
    /// where the earlier rule its note names matches too. (`LintSoundnessTests` tries many more launches on random
    /// policies; this tries the fuzzer's policies.)
    static func claimsHold(_ report: LintReport, policy: Policy) {
        let rule = { (range: SourceRange) in policy.rules.firstIndex { $0.id.range == range } }
        for context in contexts {
            let matched = policy.evaluate(context).explanation.map(\.matched)
            for diagnostic in report.diagnostics {
                if diagnostic.code == .lintNeverMatches,
                    let index = policy.rules.firstIndex(where: { $0.condition?.range == diagnostic.range })
                {
                    precondition(!matched[index], "\(diagnostic), but the rule matches")
                }
                if diagnostic.code == .lintShadowedRule, let later = rule(diagnostic.range),
                    let earlier = diagnostic.notes.first.flatMap({ rule($0.range) })
                {
                    precondition(!matched[later] || matched[earlier],
                        "\(diagnostic), but the earlier rule does not match")
                }
            }
        }
    }

    /// What `policy-lint --fix` does to the file: its fix-its applied, and the text as fixed linted again. A fix
    /// writes text that reads back: whatever it replaced, the text as fixed is still YAML, where the original was.
    /// And quoting a value other YAML tools would read as something else changes nothing LaunchPolicy reads: with
    /// only those fix-its applied, the policy decides as before at every launch of ``contexts``.
    ///
    /// Then every pass `--fix` makes: what it reports is the lint of the text it leaves, and every fix-it it counts
    /// is one that changed that text.
    static func fixed(_ report: LintReport, linter: PolicyLinter, path: String) {
        let fixIts = report.diagnostics.compactMap(\.fixIt)
        guard !fixIts.isEmpty else { return }
        let fixed = FixIt.apply(fixIts, to: report.source)
        let again = linter.lint(fixed.text, path: path)
        let syntax = { (report: LintReport) in report.diagnostics.contains { $0.code == .yamlSyntaxError } }
        precondition(syntax(report) || !syntax(again),
            "a fix-it made the text unreadable: \(again.diagnostics.first { $0.code == .yamlSyntaxError }!)")

        let passes = linter.fix(report.source, path: path)
        precondition(passes.original == report.source && passes.changed == (passes.report.source != report.source),
            "--fix counted \(passes.applied.count) fix-its, and the text \(passes.changed ? "is as it was" : "changed")"
        )
        precondition(linter.lint(passes.report.source, path: path).diagnostics == passes.report.diagnostics,
            "--fix's report is not the lint of the text it leaves")

        let quotes = report.diagnostics.filter { $0.code == .lintRetypedScalar }.compactMap(\.fixIt)
        let parser = AutomaticPolicyParser(expectsLaunchGateJSON: path.hasSuffix(".json"))
        guard !quotes.isEmpty, let before = parser.parse(Data(report.source)).usablePolicy else { return }
        let quoted = parser.parse(Data(FixIt.apply(quotes, to: report.source).text))
        guard let after = quoted.usablePolicy else {
            let error = quoted.diagnostics.first { $0.severity == .error }!
            preconditionFailure("quoting made the policy unusable: \(error)")
        }
        for context in contexts {
            let expected = before.evaluate(context), decided = after.evaluate(context)
            precondition(decided.shown == expected.shown && decided.grants == expected.grants,
                "quoting changed the decision from \(expected.shown) to \(decided.shown)")
        }
    }

    /// The same bytes as the state an app reads at every launch before it evaluates: its launch history file and
    /// the memory of what it showed. Whatever they hold (a file cut short, edited by hand, written by an older
    /// version), the launch is recorded and makes a context. And `shown`, what the policy showed in `run`, recorded
    /// and read back.
    static func launchState(_ bytes: [UInt8], policy: Policy?, shown: DisplayMemory) {
        let fileManager = FileManager.default
        let folder = fileManager.temporaryDirectory
            .appendingPathComponent("policy-fuzzer-\(ProcessInfo.processInfo.processIdentifier)")
        // A history that cannot be read is kept aside under a new name: the folder is emptied after every input.
        defer { try? fileManager.removeItem(at: folder) }
        let history = folder.appendingPathComponent("launches.json")
        let memoryFile = folder.appendingPathComponent("memory.json")
        do {
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: history)
            try Data(bytes).write(to: memoryFile)
        } catch {
            preconditionFailure("the fuzzer cannot write its state files in \(folder.path): \(error)")
        }
        let launch: LaunchInfo
        do {
            let tracker = try LaunchTracker(store: JSONFileLaunchHistoryStore(url: history), appVersion: "2.3.9",
                build: "2390", importingLegacyKeysFrom: nil)
            launch = try tracker.recordLaunch(source: .url, now: now)
            if case .corrupt(_, _, let diagnostic?)? = tracker.recovery { placed(diagnostic, in: bytes) }
        } catch {
            preconditionFailure("a launch over any history file is recorded: \(error)")
        }
        let context: LaunchContext
        do {
            context = try LaunchContext(platform: .android, appVersion: "2.3.9", build: "2390", now: now,
                installID: "install-3", launch: launch)
        } catch {
            preconditionFailure("a recorded launch makes a context: \(error)")
        }
        let store = JSONFileDisplayMemoryStore(url: memoryFile)
        var memory = DisplayMemory()
        do {
            memory = try store.load()
        } catch let error as DisplayMemoryError {
            placed(error.diagnostic ?? .error("fuzz.unplaced", error.reason, at: .wholeInputStart), in: bytes)
        } catch {
            preconditionFailure("a memory file that was written reads or is refused as a memory file: \(error)")
        }
        if let policy {
            let decision = policy.evaluate(context, memory: memory)
            _ = decision.report
            for directive in decision.shown { memory.record(directive, at: now) }
        }
        // What the app records reads back as it was recorded, whatever the rule ids and message ids are: a key lost
        // or changed on the way would show a "once" message again. (Dates are kept to the millisecond, and within
        // the years 0000 to 9999, so a date read from the file may come back rounded; one recorded now may not.)
        for (key, date) in shown.shown { memory.record(key, at: date) }
        do {
            try store.save(memory)
            let reread = try store.load()
            precondition(Set(reread.shown.keys) == Set(memory.shown.keys), "a display memory key did not read back")
            precondition(shown.shown.allSatisfy { reread.lastShown($0.key) == now },
                "a record's date did not read back")
            try store.save(reread)
            let again = try store.load()
            precondition(again == reread, "the display memory changed on its second save")
        } catch {
            preconditionFailure("the display memory could not be saved and read back: \(error)")
        }
        deliveredPolicy(bytes, cacheFolder: folder.appendingPathComponent("delivery"), context: context)
    }

    /// A file's problem (a state file's, a key's) has a code of the file's family and lies within the file, on the
    /// line and column its byte offset is at (counted here apart from the library: lines broken at LF, CR and CR LF,
    /// as editors break them, NEL, LS and PS being characters of their line; columns in characters, a byte order
    /// mark in none), and renders with the file.
    static func placed(_ diagnostic: Diagnostic, in bytes: [UInt8], family: String = "state.") {
        precondition(diagnostic.code.rawValue.hasPrefix(family), "a problem of this file has a \(family) code")
        let range = diagnostic.range
        precondition(range.start.offset <= range.end.offset && range.end.offset <= bytes.count,
            "a problem lies outside its file: \(range)")
        var line = 1, column = 1
        let marked = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let before = bytes[min(marked, range.start.offset)..<range.start.offset]
        var index = before.startIndex
        while index < before.endIndex {
            let rest = before[index...]
            let lineBreak = [[0x0D, 0x0A], [0x0A], [0x0D]].first { rest.starts(with: $0) }
            if let lineBreak {
                line += 1
                column = 1
                index += lineBreak.count
            } else {
                if before[index] & 0xC0 != 0x80 { column += 1 }
                index += 1
            }
        }
        precondition((range.start.line, range.start.column) == (line, column),
            "a problem at offset \(range.start.offset) says \(range.start), not \(line):\(column)")
        _ = diagnostic.rendered(file: "file", source: bytes)
    }

    /// The same bytes as the delivery cache, which an app reads at every launch before the network (whatever it
    /// holds, the launch gets a policy or none, and a reason), and as the key and signature texts an app and
    /// `launch-policy` are configured with.
    static func deliveredPolicy(_ bytes: [UInt8], cacheFolder: URL, context: LaunchContext) {
        do {
            try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
            try Data(bytes).write(to: cacheFolder.appendingPathComponent(deliveryCacheFile))
        } catch {
            preconditionFailure("the fuzzer cannot write the delivery cache in \(cacheFolder.path): \(error)")
        }
        let remote = URL(string: "https://policies.example.com/lantern/policy.yaml")
        let sources = [
            PolicySource(bundled: bundled, remoteURL: remote, cacheDirectory: cacheFolder),
            PolicySource(bundled: bundled, remoteURL: remote, cacheDirectory: cacheFolder, publicKey: publicKey),
            PolicySource(remoteURL: remote, cacheDirectory: cacheFolder, publicKey: publicKey,
                failureMode: .closed(maximumAge: 7 * 86_400, message: "Connect to the internet to go on.")),
        ]
        for source in sources {
            let delivered = PolicyDelivery(source: source, clock: { now }).current(now: now)
            _ = delivered.evaluate(context).report
            _ = delivered.diagnostics.map(\.rendered)
        }
        // Key and signature texts: a refused one is placed in the text (its UTF-8, repaired where the bytes are not).
        let text = String(decoding: bytes, as: UTF8.self)
        let textBytes = Array(text.utf8)
        func refused(_ error: PolicyKeyError) { placed(error.diagnostic, in: textBytes, family: "signing.") }
        do { _ = try PolicyPublicKey(text: text) } catch { refused(error) }
        do { _ = try PolicySignature(text: text) } catch { refused(error) }
        do { _ = try PolicySigningKey(text: text) } catch { refused(error) }
        _ = PolicySource.requestHeaderProblem(name: text, value: text)
        refreshed(bytes, cacheFolder: cacheFolder, unsigned: sources[0], keyed: sources[1])
    }

    /// The same bytes as the body the policy server answers a refresh with: signed with the fuzzer's key, under a
    /// source with that key; then a 304; then, under a source without a key, the status the first byte picks, with
    /// the bytes as the signature. Whatever the answer, and whatever the cache held before (these bytes, as
    /// `deliveredPolicy` wrote them), a refresh that fails leaves the cache file byte for byte as it was; one that
    /// updates caches a policy that decodes (and verifies, with a key), which the next launch uses with its ETag.
    /// (Three refreshes, not each answer under each source: six made the target three times as slow.)
    static func refreshed(_ bytes: [UInt8], cacheFolder: URL, unsigned: PolicySource, keyed: PolicySource) {
        let body = Data(bytes)
        let signature: PolicySignature
        do {
            signature = try signingKey.signature(for: body)
        } catch {
            preconditionFailure("the fuzzer's key does not sign: \(error)")
        }
        let etag = String(decoding: bytes.prefix(24), as: UTF8.self)
        let statuses = [200, 304, 404, 500, 206, 301]
        let answers: [(source: PolicySource, status: Int, headers: [String: String])] = [
            (keyed, 200, ["ETag": etag, "X-Policy-Signature": signature.base64]),
            (keyed, 304, ["ETag": "\"confirmed\""]),
            (unsigned, statuses[Int(bytes.first ?? 0) % statuses.count],
                ["ETag": "\"later\"", "X-Policy-Signature": String(decoding: bytes.suffix(120), as: UTF8.self)]),
        ]
        let cacheFile = cacheFolder.appendingPathComponent(deliveryCacheFile)
        for answer in answers {
            let source = answer.source
            let before = contents(of: cacheFile)
            let delivery = PolicyDelivery(source: source, clock: { now })
            let result = waitFor {
                await delivery.refresh(answeredBy: { _ in
                    PolicyResponse(status: answer.status, headers: answer.headers, body: body)
                })
            }
            switch result.outcome {
            case .updated:
                precondition(source.parser.parse(body).usablePolicy != nil, "a policy with errors was cached")
                if let key = source.publicKey {
                    precondition(answer.headers["X-Policy-Signature"] == signature.base64
                        && key.verifies(signature, of: body), "an unverified policy was cached")
                }
                let current = PolicyDelivery(source: source, clock: { now }).current(now: now)
                precondition(current.origin == .cache && current.diagnostics.isEmpty,
                    "a policy just cached is not used: \(current.diagnostics.map(\.rendered))")
                precondition(current.etag == answer.headers["ETag"], "the ETag did not read back from the cache")
            case .notModified:
                let current = PolicyDelivery(source: source, clock: { now }).current(now: now)
                precondition(current.origin == .cache && current.diagnostics.isEmpty,
                    "a confirmed policy is not used: \(current.diagnostics.map(\.rendered))")
            case .failed, .rejected, .notConfigured:
                precondition(contents(of: cacheFile) == before, "a refresh that failed changed the cache")
            }
        }
    }

    /// The file's bytes; nil when there is no file. Read with `open` and `read`: `Data(contentsOf:)` leaks a 4 KiB
    /// buffer for an empty file on Linux (see `AtomicFile.contents`), which LeakSanitizer reports as the target's.
    static func contents(of url: URL) -> [UInt8]? {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else {
                precondition(count == 0, "the fuzzer cannot read \(url.path): errno \(errno)")
                return bytes
            }
            bytes += buffer[..<count]
        }
    }

    /// What `work` returns, waited for here: libFuzzer calls the target on a thread of its own. Started as an
    /// immediate task, which runs on this thread until it suspends; a refresh answered at once never does, so the
    /// task is made and freed within the input. (A task on Swift's pool was freed there after the input ended: with
    /// more allocations than frees in an input, libFuzzer scans the whole heap for leaks, and the target ran at a
    /// third of its speed.)
    static func waitFor(_ work: @escaping @Sendable () async -> RefreshResult) -> RefreshResult {
        final class Box: @unchecked Sendable {
            var result: RefreshResult?
            let done = DispatchSemaphore(value: 0)
        }
        let box = Box()
        Task.immediate {
            box.result = await work()
            box.done.signal()
        }
        box.done.wait()
        guard let result = box.result else { preconditionFailure("the refresh returned nothing") }
        return result
    }

    /// The cache file's name in its folder (`PolicyCache.fileName`, which docs/delivery.md gives).
    static let deliveryCacheFile = "launch-policy-cache.json"

    /// The key `Fuzz/seeds/launch-policy-cache.json` is signed with, so that the fuzzer starts from a cache that
    /// verifies: its private half is `Fuzz/seeds/signing-key.txt`.
    /// (Made for each input, as `bundled` is: LeakSanitizer does not see a `Data` kept in a static, and libFuzzer
    /// would stop at the first input with a "leak".)
    static var publicKey: PolicyPublicKey {
        do {
            return try PolicyPublicKey(text: "lZcO7PhlIvFhdglqWp+gc/GHFUmhYSjHwA6PMyOQWT4=")
        } catch {
            preconditionFailure("the fuzzer's public key does not read: \(error)")
        }
    }

    /// The private half of ``publicKey``: `Fuzz/seeds/signing-key.txt`, a key for fuzzing only.
    static var signingKey: PolicySigningKey {
        do {
            return try PolicySigningKey(text: "zFgQvii0GYS8kAjkFQAPbaxMLlZOVs35uQ6o2SyEwpM=")
        } catch {
            preconditionFailure("the fuzzer's signing key does not read: \(error)")
        }
    }

    /// A small bundled policy, the fallback when the cache cannot be used.
    static var bundled: Data { Data("""
        policy: 1
        messages:
          update: {default: "Update Lantern to go on."}
        rules:
          - id: minimum
            when: {app-version: "< 2.0"}
            then: require-update
            message: update
            url: "https://example.com/lantern"
        """.utf8) }

    /// A policy with a note, warnings and a long block window, for `.policy-lint.yaml`'s severities, disabled codes
    /// and `max-block-window` to change.
    static let configuredPolicy = Array("""
        policy: 1
        messages:
          update: {default: "Update Lantern to go on."}
          unused: {default: "Never shown."}
        rules:
          - id: maintenance
            when: {date: {from: "2026-11-20T00:00:00Z", until: "2026-11-23T00:00:00Z"}}
            then: block
            message: update
          - id: minimum
            when: {app-version: "< 2.0"}
            then: require-update
            message: update
          - id: never
            when: {app-version: ">= 3 < 2"}
            then: notify
            message: update
        """.utf8)

    /// A small installed base for the simulation.
    static let population = Population.read(csv: Data("""
        platform,app-version,build,locale,region,launch,launch-count,install-id,attributes.plan,users
        ios,2.3.9,2390,pt-BR,BR,upgrade,7,,pro,40
        android,1.0.0,41,ja,JP,first,1,install-2,,3
        macos,10.0,,,,,,,,1
        """.utf8)).population

    /// Launch contexts that between them reach every kind of condition.
    static let contexts: [LaunchContext] = {
        let day: TimeInterval = 86_400
        let launch = LaunchInfo(
            kind: .upgrade, count: 7, previousVersion: "2.3.1", previousBuild: "230", installVersion: "1.0",
            firstLaunchDate: now - 400 * day, previousLaunchDate: now - 3 * day, daysSinceLastLaunch: 3,
            daysSinceInstall: 400, source: .remoteNotification)
        return [
            try? LaunchContext(now: now),
            try? LaunchContext(
                platform: .ios, appVersion: "2.3.9", build: "2390", osVersion: "17.4", originalAppVersion: "120",
                locale: "pt-BR", region: "BR", now: now, installID: "install-1", launch: launch,
                attributes: ["plan": "pro"]),
            try? LaunchContext(
                platform: .android, appVersion: "1.0.0-beta.2", build: "41", osVersion: "14", locale: "ja",
                region: "JP", now: now + 30 * day, installID: "install-2", launch: LaunchInfo(kind: .first, count: 1)),
            try? LaunchContext(platform: .macos, appVersion: "10.0", now: now - 365 * day),
            // Launches for which the example policies (the seeds) show something, so that what is shown is recorded
            // from the first input on: a prompt, notices during a coming maintenance, a what's-new screen, a rollout.
            try? LaunchContext(
                platform: .ios, appVersion: "2.5", locale: "fr", now: now + 10 * day, installID: "install-0004",
                launch: LaunchInfo(kind: .normal, count: 30, daysSinceLastLaunch: 45, daysSinceInstall: 300)),
            try? LaunchContext(platform: .ios, appVersion: "3.0.1", now: now,
                launch: LaunchInfo(kind: .upgrade, count: 8, previousVersion: "2.9")),
            try? LaunchContext(
                platform: .android, appVersion: "4.2", build: "420", now: now, installID: "install-0004"),
            // Locales with and without a script, as iOS and Android give them, which `locale` conditions and lint
            // read in both forms; and Android's three-digit and empty countries.
            try? LaunchContext(platform: .ios, appVersion: "2.4", locale: "zh-Hans_CN", region: "CN", now: now),
            try? LaunchContext(platform: .android, appVersion: "2.4", locale: "zh_TW", region: "419", now: now),
            try? LaunchContext(platform: .android, appVersion: "2.4", locale: "sr_RS_#Latn", region: "", now: now),
        ].compactMap { $0 }
    }()
}
