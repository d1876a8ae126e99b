import Foundation
import HTTPTypes
import HeraldCore
import HeraldModels
import Hummingbird
import HummingbirdCore

/// `GET /v1/me/feed`, what every app opens on launch: the page is written straight from the stored
/// items. Through the generated types each item's card went from its stored JSON to the `Card`
/// type and back, and the page through Foundation's encoder — three fifths of the request's CPU.
/// The stored card is already in the `Card` schema's form (it was stored from that type), so it is
/// written as it is; `FeedPageTests` holds the two writings equal.
extension HotRoutes {
    static func registerFeed<Context: RequestContext>(on router: Router<Context>, services: HeraldServices) {
        router.get("/v1/me/feed") { request, _ -> Response in
            let session = try await services.authenticator.user(bearer: RequestCredentials.bearer)
            let query = try feedQuery(request.uri.queryParameters)
            let page = try await services.userFeed.page(appId: session.appId, uid: session.uid, query)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: feedPage(page)))
            )
        }
    }

    /// The query of `GET /v1/me/feed`, each value checked and named when wrong.
    static func feedQuery(_ parameters: FlatDictionary<Substring, Substring>) throws -> FeedQuery {
        func text(_ name: String) -> String? { parameters.get(name).map { String($0) } }
        func date(_ name: String) throws -> Date? {
            guard let value = text(name) else { return nil }
            guard let date = WireTimestamp.parse(value) else {
                throw HeraldError.invalidField(name, "'\(value.prefix(64))' is not an ISO 8601 date-time such as 2026-11-23T09:30:00.000Z")
            }
            return date
        }
        var limit = 20
        if let value = text("limit") {
            guard let number = Int(value) else { throw HeraldError.invalidField("limit", "must be an integer from 1 to 100") }
            limit = number
        }
        var readState: FeedQuery.ReadState?
        if let value = text("readState") {
            guard let state = FeedQuery.ReadState(rawValue: value) else { throw HeraldError.invalidField("readState", "must be read or unread") }
            readState = state
        }
        let tags = (text("tags") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return FeedQuery(
            limit: limit,
            cursor: text("cursor"),
            readState: readState,
            category: text("category"),
            categoryId: text("categoryId"),
            channelId: text("channelId"),
            tags: tags,
            dateFrom: try date("dateFrom"),
            dateTo: try date("dateTo")
        )
    }

    /// A `FeedPage`'s JSON text.
    static func feedPage(_ page: Page<FeedItem>) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 1_024 * max(1, page.items.count))
        writer.member("data") { out in
            out.append(UInt8(ascii: "["))
            for (index, item) in page.items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: feedItem(item))
            }
            out.append(UInt8(ascii: "]"))
        }
        if let next = page.nextCursor { writer.member("nextCursor", .string(next)) }
        return writer.finish()
    }

    /// A `FeedItem`'s JSON text: the members of the schema, absent ones left out.
    static func feedItem(_ item: FeedItem) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 1_024)
        writer.member("id", .string(item.id))
        if let category = item.category { writer.member("category", .string(category)) }
        if let categoryId = item.categoryId { writer.member("categoryId", .string(categoryId)) }
        if let channelId = item.channelId { writer.member("channelId", .string(channelId)) }
        if let campaignId = item.campaignId { writer.member("campaignId", .string(campaignId)) }
        // Nested objects with their keys sorted, as the generated encoder writes them: the same
        // item reads the same on every request.
        writer.member("content") { out in
            if case .object = item.content { item.content.write(into: &out, sortedKeys: true) } else { out.append(contentsOf: "{}".utf8) }
        }
        if let readAt = item.readAt { writer.member("readAt", .string(WireTimestamp.format(readAt))) }
        if let deliveredAt = item.deliveredAt { writer.member("deliveredAt", .string(WireTimestamp.format(deliveredAt))) }
        writer.member("sentAt", .string(WireTimestamp.format(item.sentAt)))
        writer.member("metadata") { JSONValue.object(item.metadata).write(into: &$0, sortedKeys: true) }
        writer.member("tags", .array(item.tags.map(JSONValue.string)))
        writer.member("sender", .string(item.sender))
        writer.member("receiver", .string(item.receiver))
        writer.member("receiverType", .string(item.receiverType))
        writer.member("isRead", .bool(item.isRead))
        if let pushNotificationId = item.pushNotificationId { writer.member("pushNotificationId", .string(pushNotificationId)) }
        return writer.finish()
    }
}
