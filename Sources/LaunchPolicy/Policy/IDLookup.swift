import Foundation

/// Finds the elements of one list by id, the first of an id as a scan would: by a scan among ``scanned`` elements or
/// fewer, and through a table, made at the first lookup, among more. A table costs more to make than a scan of a few.
///
/// For what looks up many ids in one list: the interpreter a message for each rule that shows one, descriptions one
/// for each rule, a policy test the rules its memory lists. A scan for each is ids times elements: 9,000 rules each
/// showing a message of its own took 158 ms to evaluate, against 44 ms to read and decode them.
struct IDLookup {
    /// How many elements are scanned for an id rather than looked up in a table.
    static let scanned = 32

    private var places: [String: Int]?

    /// The place among `elements` of the first whose `id` is this one; `elements` are the same at every lookup.
    mutating func place<Element>(of id: String, in elements: [Element], id elementID: (Element) -> String) -> Int? {
        if elements.count <= Self.scanned { return elements.firstIndex { elementID($0) == id } }
        return tablePlace(of: id, in: elements, id: elementID)
    }

    /// The place through the table, made at the first lookup: apart, so that the scan stays small where it is called.
    private mutating func tablePlace<Element>(of id: String, in elements: [Element], id elementID: (Element) -> String)
        -> Int?
    {
        if let places { return places[id] }
        var places: [String: Int] = [:]
        places.reserveCapacity(elements.count)
        for index in elements.indices where places[elementID(elements[index])] == nil {
            places[elementID(elements[index])] = index
        }
        self.places = places
        return places[id]
    }
}
