import Foundation

/// CometChat: a custom provider's webhook is an HTTPS URL reachable from the internet. Herald refuses
/// URLs whose host is, or resolves to, a loopback, private, link-local or otherwise internal
/// address, so that a tenant cannot aim Herald at the operator's own network. Operators may lift
/// this for development with `HERALD_WEBHOOK_ALLOW_PRIVATE=1`.
public struct WebhookURLPolicy: Sendable {
    let resolver: any HostResolver
    let allowPrivate: Bool

    public init(resolver: any HostResolver, allowPrivate: Bool) {
        self.resolver = resolver
        self.allowPrivate = allowPrivate
    }

    /// Checks the URL; the addresses its host resolved to, all accepted (the host itself when it
    /// is an address; none when private targets are allowed and the name was not resolved).
    @discardableResult
    public func check(_ text: String, field: String = "url") async throws -> [String] {
        guard text.count <= 2048, let components = URLComponents(string: text) else {
            throw HeraldError.invalidField(field, "is not a valid URL")
        }
        guard components.scheme?.lowercased() == "https" else {
            throw HeraldError.invalidField(field, "must be an https:// URL")
        }
        guard var host = components.host, !host.isEmpty else {
            throw HeraldError.invalidField(field, "must name a host")
        }
        guard components.user == nil, components.password == nil else {
            throw HeraldError.invalidField(field, "must not carry credentials; use basicAuth")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if allowPrivate { return IPAddress(host) != nil ? [host] : ((try? await resolver.addresses(of: host)) ?? []) }
        let addresses: [String]
        if IPAddress(host) != nil {
            addresses = [host]
        } else {
            let lowered = host.lowercased()
            if lowered == "localhost" || lowered.hasSuffix(".localhost") || lowered.hasSuffix(".local") || lowered.hasSuffix(".internal") {
                throw HeraldError.invalidField(field, "must not point at a loopback or private host")
            }
            do {
                addresses = try await resolver.addresses(of: host)
            } catch {
                throw HeraldError.invalidField(field, "host '\(host)' does not resolve")
            }
            guard !addresses.isEmpty else { throw HeraldError.invalidField(field, "host '\(host)' does not resolve") }
        }
        for address in addresses {
            guard let ip = IPAddress(address), ip.isPubliclyRoutable else {
                throw HeraldError.invalidField(field, "must not point at a loopback, private or link-local address (\(address))")
            }
        }
        return addresses
    }
}
