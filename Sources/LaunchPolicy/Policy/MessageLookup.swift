import Foundation

/// Finds a policy's messages by id, the first message of an id as a scan would: by a scan among
/// ``scannedMessages`` messages or fewer, and through a table, made at the first lookup, among more.
///
/// Rules that show messages look theirs up one by one (the interpreter for each rule that shows one, a description for
/// each rule), and a scan for each is rules times messages: 9,000 rules each showing a message of its own took 158 ms
/// to evaluate, against 44 ms to read and decode them. A table costs more to make than a scan of a few.
struct MessageLookup {
    /// How many messages are scanned for an id rather than looked up in a table.
    static let scannedMessages = 32

    private var places: [String: Int]?

    /// The place among `messages` of the first message with this id; `messages` are the same at every lookup.
    mutating func place(of id: String, in messages: [Message]) -> Int? {
        if messages.count <= Self.scannedMessages { return messages.firstIndex { $0.id == id } }
        return tablePlace(of: id, in: messages)
    }

    /// The place through the table, made at the first lookup: apart, so that the scan stays small where it is called.
    private mutating func tablePlace(of id: String, in messages: [Message]) -> Int? {
        if let places { return places[id] }
        var places: [String: Int] = [:]
        places.reserveCapacity(messages.count)
        for index in messages.indices where places[messages[index].id] == nil {
            places[messages[index].id] = index
        }
        self.places = places
        return places[id]
    }
}
