import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

@Suite("Card schema")
struct CardValidatorTests {
    static func schema() throws -> JSONObject {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/HeraldAPI/card-schema.json")
        return try #require(try JSONValue(jsonBytes: Data(contentsOf: url)).objectValue)
    }

    /// The validator's table and the JSON Schema document describe the same elements and actions,
    /// field for field.
    @Test func theValidatorAndTheSchemaDocumentAgree() throws {
        let defs = try #require(try Self.schema()["$defs"]?.objectValue)
        let definitions = defs.compactMapValues(\.objectValue)
        try #require(definitions.count == defs.count, "every definition is an object")
        let tables: [(String, [String: CardValidator.Shape])] = [("Element", CardValidator.elementTypes), ("Action", CardValidator.actionTypes)]
        for (suffix, table) in tables {
            let documented = Set(
                definitions.keys.filter { $0.hasSuffix(suffix) && $0 != suffix.lowercased() }.map { String($0.dropLast(suffix.count)) }
            )
            #expect(documented == Set(table.keys), "\(suffix)")
            for (type, shape) in table {
                let definition = try #require(definitions[type + suffix], "\(type)")
                let properties = Set((definition["properties"]?.objectValue ?? [:]).keys)
                #expect(properties == Set(shape.fields.keys).union(["type"]), "\(type)")
                var required: [String] = []
                if case .array(let names)? = definition["required"] { required = names.compactMap(\.stringValue) }
                #expect(Set(required) == Set(shape.required).union(["type"]), "\(type)")
            }
        }
    }

    /// The SDK's sample card (every element and action) is one the server accepts.
    @Test func theSDKSampleCardIsValid() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../HeraldKitTests/Snapshots/sample-card.json")
        let card = try JSONValue(jsonBytes: Array(try Data(contentsOf: url)))
        #expect(CardValidator.problems(card).isEmpty, "\(CardValidator.problems(card))")
    }

    @Test func aGoodCardPassesAndEveryProblemIsNamedByPointer() throws {
        let good = try JSONValue(
            jsonText: """
                {"version":"1.0","fallbackText":"Sale","style":{"background":{"light":"#FFFFFF","dark":"#000000CC"}},"body":[
                  {"type":"text","id":"t","content":"Sale","variant":"heading1"},
                  {"type":"image","id":"i","url":"https://example.com/a.png","aspectRatio":1.5,"action":{"type":"downloadFile","url":"https://example.com/a.pdf"}},
                  {"type":"accordion","id":"a","title":"More","items":[{"type":"link","id":"l","text":"Help","action":{"type":"chatWithGroup","guid":"support"}}]},
                  {"type":"tabs","id":"tabs","tabs":[{"id":"tab1","title":"One","items":[{"type":"button","id":"b","label":"Buy","action":{"type":"apiCall","url":"https://api.example.com/buy","method":"POST","headers":{"X-Id":"1"},"body":{"sku":1}}}]}]},
                  {"type":"divider"},{"type":"spacer","height":8},
                  {"type":"row","id":"r","items":[{"type":"iconButton","id":"call","icon":"phone","action":{"type":"initiateCall","callType":"audio","uid":"ana"}},
                    {"type":"button","id":"s","label":"Say hi","action":{"type":"sendMessage","text":"Hi","receiverGuid":"g"}},
                    {"type":"button","id":"c","label":"Copy","action":{"type":"copyToClipboard","value":"CODE"}},
                    {"type":"button","id":"cb","label":"Go","action":{"type":"customCallback","callbackId":"go","payload":{"x":1}}}]}
                ]}
                """
        )
        #expect(CardValidator.problems(good).isEmpty, "\(CardValidator.problems(good))")

        let bad = try JSONValue(
            jsonText: """
                {"version":"1.0","fallbackText":"","body":[
                  {"type":"button","id":"b","label":"x","action":{"type":"sendMessage","text":"hi","receiverUid":"a","receiverGuid":"g"}},
                  {"type":"row","id":"b","items":[]},
                  {"type":"spacer","height":-1},
                  {"type":"text","id":"t","content":"x","maxLines":1.5}
                ]}
                """
        )
        let found = Dictionary(CardValidator.problems(bad).map { ($0.pointer, $0.message) }) { first, _ in first }
        #expect(found["/fallbackText"] != nil)
        #expect(found["/body/0/action"]?.contains("exactly one") == true)
        #expect(found["/body/1/items"] != nil && found["/body/1/id"]?.contains("unique") == true)
        #expect(found["/body/2/height"] != nil && found["/body/3/maxLines"] != nil)
        #expect(throws: HeraldError.self) { try CardValidator.validate(bad, at: "/card") }

        // Variables pass the format checks in templates only.
        let template = JSONValue.object([
            "version": .string("1.0"), "fallbackText": .string("{{user.name}}"),
            "body": .array([
                .object(["type": .string("image"), "id": .string("i"), "url": .string("{{data.image}}")])
            ]),
        ])
        #expect(CardValidator.problems(template, template: true).isEmpty)
        #expect(CardValidator.problems(template).map(\.pointer) == ["/body/0/url"])
    }

    @Test func cardsAreFilledPerUser() {
        let user = User(uid: "ana", name: "Ana", metadata: ["plan": .string("gold")], createdAt: Date(), updatedAt: Date())
        let spec = FeedItemSpec(
            card: .object([
                "t": .string("Hi {{user.name}}, {{user.metadata.plan}}: {{data.offer}} ({{campaign.name}})"),
                "n": .array([.number(1), .string("{{missing}}")]),
            ]),
            data: ["offer": .string("20%")],
            sender: "app",
            campaignName: "Spring"
        )
        let filled = FeedPublisher.fill(spec.card, FeedPublisher.context(user: user, spec: spec))
        #expect(filled == .object(["t": .string("Hi Ana, gold: 20% (Spring)"), "n": .array([.number(1), .string("")])]))
    }
}
