import Foundation
import HeraldFixtures
import HeraldModels
import Testing

@testable import HeraldCore

/// A push template's variables, looked up from the event's fields (``EventTemplateScope``), are
/// exactly those of the dictionary swift-mustache is given (``ResolvedEvent/templateContext(hideText:)``):
/// every path of the dictionary, for every documented event, its text shown and hidden, and
/// paths the dictionary does not have.
@Suite struct EventTemplateScopeTests {
    @Test(arguments: PayloadGoldenTests.fixtures.map(\.name))
    func theScopeFindsWhatTheDictionaryHolds(_ name: String) throws {
        let fixture = try #require(PayloadGoldenTests.fixtures.first { $0.name == name })
        guard case .object(let posted)? = fixture["event"] else { throw PayloadGoldenTests.Failure("\(name): no event") }
        let parsed = try EventParser.parse(.object(posted), now: Date())
        let app = App(id: "app1", name: "Acme", region: "eu", settings: PushSettings(), createdAt: Date())
        let event = ResolvedEvent.resolve(
            ChatEvent(id: "evt_scope", appId: app.id, clientId: nil, receivedAt: Date(), body: parsed.body),
            app: app,
            users: [:],
            group: nil
        )
        for hideText in [false, true] {
            let scope = EventTemplateScope(event: event, hideText: hideText)
            let dictionary = event.templateContext(hideText: hideText)
            var paths: [[String]] = []
            Self.collect(dictionary, into: &paths)
            #expect(!paths.isEmpty)
            for path in paths {
                #expect(scope.lookUp(path) == CompiledTemplate.lookUp(path, in: dictionary), "\(name): \(path.joined(separator: "."))")
            }
            for path in [
                ["nobody"], ["sender", "nobody"], ["sender"], ["conversationId", "more"], ["message"], ["message", "nobody"], ["receiver"],
            ] {
                #expect(scope.lookUp(path) == CompiledTemplate.lookUp(path, in: dictionary), "\(name): \(path.joined(separator: "."))")
            }
        }
    }

    /// Every path to a value in the dictionary, and to each of its objects.
    static func collect(_ dictionary: [String: Any], prefix: [String] = [], into paths: inout [[String]]) {
        for (key, value) in dictionary {
            paths.append(prefix + [key])
            if let inner = value as? [String: Any] { collect(inner, prefix: prefix + [key], into: &paths) }
        }
    }
}
