/// What a template's variables are looked up in. ``CompiledTemplate`` asks for one dotted path at
/// a time; a template its fast path cannot render is handed to swift-mustache with `dictionary`,
/// made only then.
protocol TemplateScope {
    /// The value at `path`, as Mustache would find it in ``dictionary``.
    func lookUp(_ path: [String]) -> CompiledTemplate.Lookup
    var dictionary: [String: Any] { get }
}

/// A scope that is a dictionary (a campaign's `user.*`, `campaign.*`, `data.*`).
struct DictionaryScope: TemplateScope {
    let dictionary: [String: Any]

    func lookUp(_ path: [String]) -> CompiledTemplate.Lookup {
        CompiledTemplate.lookUp(path, in: dictionary)
    }
}
