import ArgumentParser
import LaunchPolicy

/// `--lock-timeout SECONDS`, for the commands that write a state file other processes may be writing too: how long
/// to wait for the lock beside the file before giving up with nothing written.
struct LockTimeoutOption: ParsableArguments {
    @Option(name: .customLong("lock-timeout"), help: ArgumentHelp(
        "How long to wait for another process to release the file's lock, in seconds (inf: as long as it takes).",
        valueName: "seconds"))
    var seconds: Double = 5

    func validate() throws {
        // NaN fails this too.
        guard seconds >= 0 else {
            throw ValidationError("--lock-timeout \"\(seconds.plainText)\" is not valid: give seconds, 0 or more")
        }
    }
}
