import Foundation
import HeraldCards
import HeraldModels
import Testing

/// Cards as typed models and as HTML; the HTML of the sample card is guarded by snapshots
/// (`HERALD_RECORD_SNAPSHOTS=1` writes them again; `Scripts/render-card-png.sh` shows them).
@Suite("HeraldCards")
struct CardRenderingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func sample() throws -> (Card, JSONValue) {
        let data = try Data(contentsOf: folder.appendingPathComponent("sample-card.json"))
        let json = try JSONValue(jsonBytes: Array(data))
        return (try JSONDecoder().decode(Card.self, from: data), json)
    }

    @Test func theSampleCardRoundTripsAndHoldsEveryElementAndAction() throws {
        let (card, json) = try Self.sample()
        // Typed and back, field for field.
        let again = try JSONValue(jsonBytes: Array(JSONEncoder().encode(card)))
        #expect(again == json)
        #expect(
            Set(card.actions.map(\.action.type)) == [
                "openUrl", "chatWithUser", "chatWithGroup", "sendMessage", "copyToClipboard", "downloadFile",
                "initiateCall", "apiCall", "customCallback",
            ]
        )
        #expect(card.actions.first == CardActionEvent(elementId: "hero", action: .openUrl(url: "https://example.com/sale", openIn: "webview")))
        var kinds = Set<String>()
        func walk(_ elements: [CardElement]) {
            for element in elements {
                kinds.insert(String(describing: element).prefix { $0 != "(" }.description)
                walk(element.children)
            }
        }
        walk(card.body)
        #expect(kinds == ["text", "image", "button", "iconButton", "link", "row", "column", "accordion", "tabs", "divider", "spacer"])
    }

    @Test(arguments: CardColorScheme.allCases)
    func theSampleCardRendersAsItsSnapshot(_ scheme: CardColorScheme) throws {
        let (card, _) = try Self.sample()
        let html = CardHTMLRenderer(scheme: scheme).document(card)
        let file = Self.folder.appendingPathComponent("sample-card.\(scheme.rawValue).html")
        if ProcessInfo.processInfo.environment["HERALD_RECORD_SNAPSHOTS"] == "1" {
            try html.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(html == expected, "the HTML of the sample card changed; look at it (Scripts/render-card-png.sh) and record again")
        // No scripts; text escaped; every action handed to the host.
        #expect(!html.contains("<script") && html.contains("Spring sale &lt;20% off&gt;"))
        #expect(html.components(separatedBy: "data-herald-action=").count - 1 == card.actions.count)
        #expect(html.contains("<details id=\"hc-el-details\" class=\"hc-accordion\">") && html.contains("id=\"hc-info-1\" checked"))
    }

    @Test func coloursResolveOverrideFirstThenCardThenDefaults() throws {
        let pair = ColorPair(light: "#111111", dark: "#EEEEEE")
        #expect(CardColors(scheme: .dark).resolve(\.textColor, card: pair) == "#EEEEEE")
        #expect(CardColors(scheme: .light).resolve(\.textColor, card: nil) == CardTheme.defaults.textColor!.light)
        let brand = CardTheme(textColor: ColorPair(light: "#000001", dark: "#FFFFF1"), fontFamily: "Avenir")
        #expect(CardColors(scheme: .dark, overrides: brand).resolve(\.textColor, card: pair) == "#FFFFF1")
        let (card, _) = try Self.sample()
        let themed = CardHTMLRenderer(scheme: .light, theme: brand).fragment(card)
        #expect(themed.contains("font-family:Avenir") && themed.contains("color:#000001") && !themed.contains("color:#7A3E00"))
        // Only http(s) reaches href and src.
        let hostile = try JSONDecoder().decode(
            Card.self,
            from: Data(
                #"{"version":"1.0","fallbackText":"x","body":[{"type":"link","id":"x","text":"x","action":{"type":"openUrl","url":"javascript:alert(1)"}}]}"#
                    .utf8
            )
        )
        #expect(!CardHTMLRenderer().fragment(hostile).contains("href=\"javascript"))
    }
}
