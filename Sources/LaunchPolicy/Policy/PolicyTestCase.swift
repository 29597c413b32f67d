/// A test case a policy carries (`tests:`): a launch context and the decision expected for it.
public struct PolicyTestCase: Sendable {
    /// The expected gate: none, any gate of an action, or a specific rule's.
    public enum ExpectedGate: Sendable, Equatable {
        case none
        case action(Action)
        case rule(Action, String)
    }

    /// The case's name.
    public var name: String
    /// Context values by condition key, as text (typed when the case runs).
    public var context: [String: Located<ContextValue>]
    /// The expected gate, when the case states one.
    public var gate: ExpectedGate?
    /// Expected prompt rule ids, when stated.
    public var prompts: [String]?
    /// Expected notice rule ids, when stated.
    public var notices: [String]?
    /// Expected presented screens, when stated.
    public var presentations: [String]?
    /// Expected grants, when stated.
    public var grants: [String]?
    /// What was shown before, as rule ids, when stated.
    public var memory: [String]?
    /// Where the case is written.
    public var range: SourceRange

    /// Creates a test case.
    public init(
        name: String, context: [String: Located<ContextValue>] = [:], gate: ExpectedGate? = nil,
        prompts: [String]? = nil, notices: [String]? = nil, presentations: [String]? = nil, grants: [String]? = nil,
        memory: [String]? = nil, range: SourceRange
    ) {
        self.name = name
        self.context = context
        self.gate = gate
        self.prompts = prompts
        self.notices = notices
        self.presentations = presentations
        self.grants = grants
        self.memory = memory
        self.range = range
    }
}

/// A context value in a test case: one text, a list, or name → text for `attributes`.
public enum ContextValue: Sendable, Equatable {
    case text(String)
    case list([String])
    case map([String: String])
}
