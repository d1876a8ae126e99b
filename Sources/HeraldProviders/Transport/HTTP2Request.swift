import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOPosix
import NIOSSL
import NIOTLS

public struct HTTP2Request: Sendable {
    public var method: String
    public var path: String
    public var headers: HPACKHeaders
    public var body: ByteBuffer?
    public var timeout: TimeAmount

    public init(method: String = "POST", path: String, headers: HPACKHeaders = [:], body: ByteBuffer? = nil, timeout: TimeAmount = .seconds(15)) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
