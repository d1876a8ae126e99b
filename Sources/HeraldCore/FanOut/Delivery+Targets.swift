import Foundation

extension Delivery {
    /// A row of `self` for each token and for each webhook provider (an app's usable ones,
    /// ``UsableProviders/webhooks``): what clears and burst summaries send to a user's devices
    /// (the callers pick the tokens).
    func rows(to tokens: [PushToken], webhooks: [String]) -> [Delivery] {
        var rows: [Delivery] = tokens.map { token in
            var row = self
            row.id = Identifier.timeOrdered("dlv_")
            row.target = .token(token.token)
            row.providerId = token.providerId
            row.platform = token.platform
            row.sessionId = token.sessionId
            row.seal(for: token)
            return row
        }
        for providerId in webhooks {
            var row = self
            row.id = Identifier.timeOrdered("dlv_")
            row.target = .webhook(providerId: providerId)
            row.providerId = providerId
            row.route = nil
            rows.append(row)
        }
        return rows
    }

    /// In the `encrypted` mode, sealed to the token's key; a device that registered none gets ids
    /// only. A Web Push or UnifiedPush message is always sealed to its subscription's keys.
    mutating func seal(for token: PushToken) {
        guard style.contentMode == .encrypted || token.kind.providerKind == .webpush else { return }
        style.sealedTo = token.encryption
        if style.contentMode == .encrypted && token.encryption == nil { style.contentMode = .idOnly }
    }
}
