/// A card's problems by JSON pointer, and its rendering in light and dark (a fragment of its own
/// too: the page's script asks for it as you type).
struct CardPreview: DashboardViewModel {
    static let template = DashboardTemplate.cardPreview

    struct Problem {
        let pointer: String
        let message: String
    }

    let problems: [Problem]
    let hasProblems: Bool
    /// HTML built by HeraldCards' renderer, when the card parses.
    var light: String?
    var dark: String?
}
