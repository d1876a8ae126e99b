import Mustache
import Testing

@testable import HeraldCore

/// The fast path of ``CompiledTemplate`` renders exactly what swift-mustache renders, and leaves
/// to it every template it does not fully understand.
@Suite struct CompiledTemplateTests {
    nonisolated(unsafe) static let context: [String: Any] = [
        "sender": ["uid": "ana", "name": "Ana <3 & \"Bo\"", "avatar": ""],
        "message": ["id": "m1", "text": "Hi {{not a tag}}", "type": "text"],
        "group": ["guid": "g1", "name": "Crew", "membersCount": 12],
        "conversationId": "ana_user_bo",
        "callType": "video",
        "flags": ["on": true],
        "list": ["a", "b"],
        "price": 1.5,
    ]

    static let templates = [
        "{{sender.name}}", "{{{sender.name}}}", "{{& sender.name }}", "{{ sender.name }}: {{message.text}}", "Call ({{callType}})",
        "{{group.name}} · {{group.membersCount}} members", "{{missing}}|{{sender.missing}}|{{missing.deeper}}", "plain text, no tags",
        "{{#group}}In {{name}}{{/group}}", "{{^receiver}}nobody{{/receiver}}", "{{uppercased(callType)}}", "{{! a comment }}x",
        "{{flags.on}}", "{{list}}", "{{price}}", "{{conversationId.more}}", "trailing }} braces", "{{sender.name}}{{",
    ]

    /// A text has a tag exactly when it holds `{{` (what Foundation's `contains` answered).
    @Test func aTextHasATagWhenItHoldsTwoOpeningBraces() {
        for text in Self.templates + ["", "{", "{ {", "}}{{", "a{b{c", "é{{", "{{{", "{x}{y}", "日本{{語"] {
            #expect(TemplateRenderer.hasTag(text) == text.contains("{{"), "\(text)")
        }
    }

    @Test func rendersWhatMustacheRenders() throws {
        for text in Self.templates {
            guard let compiled = CompiledTemplate(text) else {
                #expect(throws: (any Error).self) { try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + text) }
                continue
            }
            let mustache = try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + text)
            #expect(compiled.render(Self.context) == mustache.render(Self.context), "\(text)")
        }
    }

    @Test func onlyLiteralsAndVariablesTakeTheFastPath() {
        #expect(
            CompiledTemplate.segments(of: "{{sender.name}}: {{{message.text}}}!") == [
                .variable(["sender", "name"]), .literal(": "), .variable(["message", "text"]), .literal("!"),
            ]
        )
        #expect(CompiledTemplate.segments(of: "no tags") == [.literal("no tags")])
        for text in [
            "{{#group}}x{{/group}}", "{{^a}}b{{/a}}", "{{uppercased(callType)}}", "{{! note }}", "{{> partial}}", "{{.}}", "{{a..b}}", "{{1a}}",
        ] {
            #expect(CompiledTemplate.segments(of: text) == nil, "\(text)")
        }
    }

    @Test func valuesOtherThanTextAndWholeNumbersAreLeftToMustache() {
        #expect(CompiledTemplate.lookUp(["sender", "name"], in: Self.context) == .found("Ana <3 & \"Bo\""))
        #expect(CompiledTemplate.lookUp(["group", "membersCount"], in: Self.context) == .found("12"))
        #expect(CompiledTemplate.lookUp(["nobody"], in: Self.context) == .missing)
        #expect(CompiledTemplate.lookUp(["flags", "on"], in: Self.context) == .other)
        #expect(CompiledTemplate.lookUp(["price"], in: Self.context) == .other)
        #expect(CompiledTemplate.lookUp(["callType", "deeper"], in: Self.context) == .other)
    }
}
