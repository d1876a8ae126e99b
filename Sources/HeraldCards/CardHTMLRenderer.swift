import Foundation
import HeraldModels

/// Renders a card to self-contained HTML and CSS: no scripts, no external style sheets
/// (accordions are `<details>`, tabs are radio buttons and CSS). Actionable elements carry
/// `data-herald-element` (the element id) and `data-herald-action` (the action as JSON) for the
/// host to handle; `openUrl` and `downloadFile` are also plain links.
public struct CardHTMLRenderer: Sendable {
    public var colors: CardColors

    public init(scheme: CardColorScheme = .light, theme: CardTheme = CardTheme()) {
        colors = CardColors(scheme: scheme, overrides: theme)
    }

    /// A whole HTML page holding the card (for previews, web views and screenshots).
    public func document(_ card: Card) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="description" content="\(escape(card.fallbackText))"><title>\(escape(card.fallbackText))</title>
        <style>body{margin:0;padding:16px;background:\(colors.scheme == .dark ? "#000000" : "#F2F2F7");}</style></head>
        <body>\(fragment(card))</body></html>

        """
    }

    /// The card as one `<div>` with its own `<style>`; the fallback text rides along, hidden.
    public func fragment(_ card: Card) -> String {
        var out = Output()
        let style = card.style
        let background = colors.resolve(\.background, card: style?.background)
        var box = [
            "background:\(background)", "color:\(colors.resolve(\.textColor, card: nil))", "font-family:\(colors.fontFamily)",
            "padding:\(number(style?.padding ?? 16))px", "border-radius:\(number(style?.borderRadius ?? 12))px",
        ]
        if let border = style?.borderColor {
            box.append("border:\(number(style?.borderWidth ?? 1))px solid \(border.resolved(colors.scheme))")
        }
        for element in card.body { render(element, into: &out) }
        return
            "<div class=\"hc-card hc-\(colors.scheme.rawValue)\" style=\"\(escape(box.joined(separator: ";")))\" role=\"article\" aria-label=\"\(escape(card.fallbackText))\">"
            + "<style>\(Self.css)\(out.css)</style>" + out.html + "<div class=\"hc-fallback\" hidden>\(escape(card.fallbackText))</div></div>"
    }

    struct Output {
        var html = ""
        var css = ""
    }

    static let css = """
        .hc-card{box-sizing:border-box;max-width:480px;line-height:1.35;font-size:15px}.hc-card *{box-sizing:border-box}\
        .hc-text{margin:0 0 8px 0;overflow:hidden}.hc-heading1{font-size:26px;font-weight:700}.hc-heading2{font-size:22px;font-weight:700}\
        .hc-heading3{font-size:19px;font-weight:600}.hc-heading4{font-size:17px;font-weight:600}.hc-bodyBold{font-weight:600}\
        .hc-caption{font-size:13px;opacity:.75}.hc-caption2{font-size:11px;opacity:.7}\
        .hc-clamp{display:-webkit-box;-webkit-box-orient:vertical}\
        .hc-image{display:block;max-width:100%;margin:0 0 8px 0}.hc-image-link{display:block;text-decoration:none}\
        .hc-button{display:inline-block;padding:9px 16px;border-radius:8px;font-weight:600;text-decoration:none;text-align:center;margin:0 0 8px 0;border:1.5px solid transparent}\
        .hc-full{display:block;width:100%}\
        .hc-icon-button{display:inline-flex;align-items:center;gap:6px;text-decoration:none;margin:0 0 8px 0}\
        .hc-icon{display:inline-flex;align-items:center;justify-content:center;border-radius:50%;font-weight:700;border:1.5px solid currentColor}\
        .hc-link{text-decoration:underline;display:inline-block;margin:0 0 8px 0}\
        .hc-row{display:flex;flex-direction:row;flex-wrap:wrap;align-items:center}.hc-column{display:flex;flex-direction:column}\
        .hc-row>*,.hc-column>*{margin-bottom:0}\
        .hc-accordion{margin:0 0 8px 0;border-top:1px solid rgba(127,127,127,.35);border-bottom:1px solid rgba(127,127,127,.35)}\
        .hc-accordion>summary{cursor:pointer;padding:8px 0;font-weight:600}.hc-accordion>div{padding:4px 0 8px 0}\
        .hc-tabs{margin:0 0 8px 0}.hc-tabs>input{position:absolute;opacity:0;pointer-events:none}\
        .hc-tablist{display:flex;gap:4px;border-bottom:1px solid rgba(127,127,127,.35);margin-bottom:8px}\
        .hc-tablist>label{padding:6px 10px;cursor:pointer;opacity:.7;border-bottom:2px solid transparent}.hc-panel{display:none}\
        .hc-divider{border:0;margin:8px 0}.hc-fallback{display:none}
        """

    func render(_ element: CardElement, into out: inout Output) {
        switch element {
        case .text(let text):
            var style = ["color:\(colors.resolve(\.textColor, card: text.color))"]
            if let align = text.align { style.append("text-align:\(align)") }
            var classes = "hc-text hc-\(text.variant ?? "body")"
            if let lines = text.maxLines {
                classes += " hc-clamp"
                style.append("-webkit-line-clamp:\(lines)")
            }
            let tag = (text.variant ?? "").hasPrefix("heading") ? "h\(text.variant!.last!)" : "p"
            out.html +=
                "<\(tag) id=\"\(id(text.id))\" class=\"\(classes)\" style=\"\(escape(style.joined(separator: ";")))\">\(escape(text.content))</\(tag)>"
        case .image(let image):
            var style: [String] = []
            if let width = image.width { style.append("width:\(number(width))px") } else { style.append("width:100%") }
            if let height = image.height { style.append("height:\(number(height))px") }
            if let ratio = image.aspectRatio { style.append("aspect-ratio:\(number(ratio))") }
            style.append("object-fit:\(image.fit ?? "cover")")
            if let radius = image.cornerRadius { style.append("border-radius:\(number(radius))px") }
            let img =
                "<img id=\"\(id(image.id))\" class=\"hc-image\" src=\"\(escape(safeURL(image.url)))\" alt=\"\(escape(image.alt ?? ""))\" style=\"\(escape(style.joined(separator: ";")))\">"
            out.html += image.action.map { actionable($0, elementId: image.id, classes: "hc-image-link", style: "", content: img) } ?? img
        case .button(let button):
            let variant = button.variant ?? "filled"
            let accent = colors.resolve(\.buttonBackground, card: button.background)
            var style: [String]
            switch variant {
            case "outlined":
                style = [
                    "color:\(colors.resolve(\.buttonBackground, card: button.textColor ?? button.background))", "border-color:\(accent)",
                    "background:transparent",
                ]
            case "text":
                style = ["color:\(colors.resolve(\.buttonBackground, card: button.textColor ?? button.background))", "background:transparent"]
            default: style = ["background:\(accent)", "color:\(colors.resolve(\.buttonText, card: button.textColor))"]
            }
            out.html += actionable(
                button.action,
                elementId: button.id,
                classes: "hc-button hc-\(variant)" + (button.fullWidth == true ? " hc-full" : ""),
                style: style.joined(separator: ";"),
                content: escape(button.label)
            )
        case .iconButton(let button):
            let size = number(button.size ?? 28)
            let color = colors.resolve(\.linkColor, card: button.color)
            let icon =
                button.icon.hasPrefix("http://") || button.icon.hasPrefix("https://")
                ? "<img src=\"\(escape(button.icon))\" alt=\"\" width=\"\(size)\" height=\"\(size)\">"
                : "<span class=\"hc-icon\" aria-hidden=\"true\" data-icon=\"\(escape(button.icon))\" style=\"width:\(size)px;height:\(size)px;font-size:\(number((button.size ?? 28) / 2))px\">\(escape(String(button.icon.prefix(1)).uppercased()))</span>"
            let label = button.label.map { "<span>\(escape($0))</span>" } ?? ""
            out.html += actionable(
                button.action,
                elementId: button.id,
                classes: "hc-icon-button",
                style: "color:\(color)",
                content: icon + label,
                ariaLabel: button.label ?? button.icon
            )
        case .link(let link):
            out.html += actionable(
                link.action,
                elementId: link.id,
                classes: "hc-link",
                style: "color:\(colors.resolve(\.linkColor, card: link.color))",
                content: escape(link.text)
            )
        case .row(let row):
            let justify =
                ["start": "flex-start", "center": "center", "end": "flex-end", "spaceBetween": "space-between"][row.align ?? "start"] ?? "flex-start"
            container("hc-row", row, style: "gap:\(number(row.gap ?? 8))px;justify-content:\(justify);margin:0 0 8px 0", into: &out)
        case .column(let column):
            let align = ["start": "flex-start", "center": "center", "end": "flex-end"][column.align ?? "start"] ?? "flex-start"
            container("hc-column", column, style: "gap:\(number(column.gap ?? 8))px;align-items:\(align);margin:0 0 8px 0", into: &out)
        case .accordion(let accordion):
            out.html +=
                "<details id=\"\(id(accordion.id))\" class=\"hc-accordion\"\(accordion.expanded == true ? " open" : "")><summary>\(escape(accordion.title))</summary><div>"
            for item in accordion.items { render(item, into: &out) }
            out.html += "</div></details>"
        case .tabs(let tabs):
            let name = "hc-" + cssIdent(tabs.id)
            let selected = min(max(tabs.selected ?? 0, 0), max(tabs.tabs.count - 1, 0))
            out.html += "<div id=\"\(id(tabs.id))\" class=\"hc-tabs\">"
            for index in tabs.tabs.indices {
                out.html += "<input type=\"radio\" name=\"\(name)\" id=\"\(name)-\(index)\"\(index == selected ? " checked" : "")>"
            }
            out.html += "<div class=\"hc-tablist\" role=\"tablist\">"
            for (index, tab) in tabs.tabs.enumerated() { out.html += "<label for=\"\(name)-\(index)\" role=\"tab\">\(escape(tab.title))</label>" }
            out.html += "</div>"
            let accent = colors.resolve(\.linkColor, card: nil)
            for (index, tab) in tabs.tabs.enumerated() {
                out.html += "<div class=\"hc-panel \(name)-panel-\(index)\" role=\"tabpanel\">"
                for item in tab.items { render(item, into: &out) }
                out.html += "</div>"
                out.css += "#\(name)-\(index):checked~.\(name)-panel-\(index){display:block}"
                out.css +=
                    "#\(name)-\(index):checked~.hc-tablist>label[for=\"\(name)-\(index)\"]{opacity:1;border-bottom-color:\(accent);font-weight:600}"
            }
            out.html += "</div>"
        case .divider(let divider):
            let color = divider.color.map { $0.resolved(colors.scheme) } ?? "rgba(127,127,127,.35)"
            out.html += "<hr class=\"hc-divider\" style=\"border-top:\(number(divider.thickness ?? 1))px solid \(color)\">"
        case .spacer(let spacer):
            out.html += "<div class=\"hc-spacer\" style=\"height:\(number(spacer.height))px\"></div>"
        }
    }

    func container(_ kind: String, _ container: CardElement.Container, style: String, into out: inout Output) {
        out.html += "<div id=\"\(id(container.id))\" class=\"\(kind)\" style=\"\(escape(style))\">"
        for item in container.items { render(item, into: &out) }
        out.html += "</div>"
    }

    /// An element that does something: a link for URLs, else a button-like anchor the host handles.
    func actionable(_ action: CardAction, elementId: String, classes: String, style: String, content: String, ariaLabel: String? = nil) -> String {
        let json = (try? JSONEncoder.sorted.encode(action)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var attributes =
            "id=\"\(id(elementId))\" class=\"\(classes)\" style=\"\(escape(style))\" data-herald-element=\"\(escape(elementId))\" data-herald-action=\"\(escape(json))\""
        switch action {
        case .openUrl(let url, let openIn):
            attributes += " href=\"\(escape(safeURL(url)))\"" + (openIn == "webview" ? "" : " target=\"_blank\" rel=\"noopener\"")
        case .downloadFile(let url, let filename):
            attributes += " href=\"\(escape(safeURL(url)))\" download=\"\(escape(filename ?? ""))\""
        default:
            attributes += " role=\"button\" tabindex=\"0\""
        }
        if let ariaLabel { attributes += " aria-label=\"\(escape(ariaLabel))\"" }
        return "<a \(attributes)>\(content)</a>"
    }

    /// Element ids, prefixed so a page with several cards keeps them apart from its own.
    func id(_ elementId: String) -> String { "hc-el-" + cssIdent(elementId) }

    func cssIdent(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_": Character(scalar)
                default: "_"
                }
            }
        )
    }

    /// Only http(s) URLs reach `href` and `src`.
    func safeURL(_ url: String) -> String {
        url.hasPrefix("https://") || url.hasPrefix("http://") ? url : "about:blank"
    }

    func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.2f", value)
    }

    func escape(_ text: String) -> String { HTMLText.escape(text) }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
