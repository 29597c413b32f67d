import ArgumentParser
import LaunchPolicy

@main
struct PolicyLint: ParsableCommand {}
