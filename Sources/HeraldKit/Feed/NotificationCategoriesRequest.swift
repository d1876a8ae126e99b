import Foundation
import HeraldModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Pages through the app's feed categories.
public actor NotificationCategoriesRequest {
    let herald: Herald
    let limit: Int
    private var cursor: String?
    private var exhausted = false

    public init(herald: Herald, limit: Int = 50) {
        self.herald = herald
        self.limit = limit
    }

    /// The next page; empty at the end.
    public func fetchNext() async throws(HeraldKitError) -> [NotificationCategory] {
        guard !exhausted else { return [] }
        var query = [URLQueryItem(name: "limit", value: String(limit))]
        if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
        let page = try await herald.userRequest("GET", "v1/me/feed/categories", query: query)
        cursor = page["nextCursor"]?.stringValue
        if cursor == nil { exhausted = true }
        guard case .array(let values)? = page["data"] else { return [] }
        return values.compactMap { value in
            guard let id = value.objectValue?["id"]?.stringValue, let label = value.objectValue?["label"]?.stringValue else { return nil }
            return NotificationCategory(id: id, label: label)
        }
    }
}
