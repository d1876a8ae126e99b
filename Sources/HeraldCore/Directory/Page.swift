import Foundation
import HeraldModels

/// One page of a cursor-paged list.
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// A page from `rows` read with a limit of `limit + 1`: the first `limit`, and a cursor at the
    /// last of them when there was more.
    public init(probed rows: [Item], limit: Int, key: (Item) -> String) {
        let items = Array(rows.prefix(limit))
        self.init(items: items, nextCursor: rows.count > limit ? items.last.map { Cursor.encode(key($0)) } : nil)
    }
}
