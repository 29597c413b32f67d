extension RandomAccessCollection {
    /// The first index whose element is past a point, the elements being in order for it: every element for which
    /// `isPast` is false comes before every one for which it is true. A binary search; the end index when none is
    /// past. Lint finds a byte offset among a file's scalars with it, and a launch a language among those written in
    /// several scripts.
    func partitionPoint(where isPast: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if isPast(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
