/// One-way hashing of high-entropy bearer secrets (API keys, session tokens). Only the hash is stored.
public protocol SecretHasher: Sendable {
    func hash(_ secret: String) -> String
}
