import HeraldCore
import Testing

@Suite("Webhook address policy")
struct IPAddressTests {
    @Test(arguments: [
        "127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "0.0.0.0", "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1",
        "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "ff02::1",
    ])
    func internalAddressesAreNotPublic(_ text: String) throws {
        let ip = try #require(IPAddress(text))
        #expect(!ip.isPubliclyRoutable)
    }

    @Test(arguments: ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::6810:85e5", "::ffff:8.8.8.8", "2001:4860:4860::8888"])
    func publicAddresses(_ text: String) throws {
        #expect(try #require(IPAddress(text)).isPubliclyRoutable)
    }

    @Test(arguments: ["", "1.2.3", "1.2.3.256", "example.com", "1::2::3", "12345::1", "::g"])
    func notAddresses(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    struct FixedResolver: HostResolver {
        let answers: [String: [String]]
        func addresses(of host: String) async throws -> [String] {
            guard let answer = answers[host] else { throw HeraldError(.notFound, "no such host") }
            return answer
        }
    }

    @Test func policyResolvesNamesAndChecksEveryAddress() async throws {
        let resolver = FixedResolver(answers: [
            "hooks.example.com": ["93.184.216.34"],
            "sneaky.example.com": ["93.184.216.34", "10.0.0.7"],
        ])
        let policy = WebhookURLPolicy(resolver: resolver, allowPrivate: false)
        try await policy.check("https://hooks.example.com/push")
        await #expect(throws: HeraldError.self) { try await policy.check("https://sneaky.example.com/push") }
        await #expect(throws: HeraldError.self) { try await policy.check("https://unknown.example.com/push") }
        await #expect(throws: HeraldError.self) { try await policy.check("http://hooks.example.com/push") }
        await #expect(throws: HeraldError.self) { try await policy.check("https://localhost/push") }
        await #expect(throws: HeraldError.self) { try await policy.check("https://[::1]:8443/push") }
        await #expect(throws: HeraldError.self) { try await policy.check("https://user:pw@hooks.example.com/push") }

        let open = WebhookURLPolicy(resolver: resolver, allowPrivate: true)
        try await open.check("https://127.0.0.1:8443/push")
        await #expect(throws: HeraldError.self) { try await open.check("http://127.0.0.1/push") }
    }
}
