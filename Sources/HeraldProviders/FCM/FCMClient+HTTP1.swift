import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP1

extension FCMClient {
    /// Sends requests on the HTTP/2 pool; when the server answers the TLS handshake with
    /// HTTP/1.1, sends them (and every later request) through AsyncHTTPClient.
    func exchange(_ requests: [HTTP2Request]) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        if usesHTTP1 { return await sendHTTP1(requests) }
        let answers = await pool.send(batch: requests)
        guard answers.contains(where: { if case .failure(.notHTTP2) = $0 { true } else { false } }) else { return answers }
        http1Only.withLockedValue { $0 = true }
        return await sendHTTP1(requests)
    }

    private func sendHTTP1(_ requests: [HTTP2Request]) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        let host = pool.endpoint.host.contains(":") ? "[\(pool.endpoint.host)]" : pool.endpoint.host
        let base = "https://\(host):\(pool.endpoint.port)"
        let http = self.http
        return await withTaskGroup(of: (Int, Result<HTTP2Response, HTTP2TransportError>).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    var outgoing = HTTPClientRequest(url: base + request.path)
                    outgoing.method = HTTPMethod(rawValue: request.method)
                    for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
                    if let body = request.body { outgoing.body = .bytes(body) }
                    do {
                        let response = try await http.execute(outgoing, timeout: .seconds(Int64(request.timeout.nanoseconds / 1_000_000_000)))
                        let body = try await response.body.collect(upTo: 1 << 20)
                        return (
                            index,
                            .success(
                                HTTP2Response(status: Int(response.status.code), headers: HPACKHeaders(httpHeaders: response.headers), body: body)
                            )
                        )
                    } catch {
                        return (index, .failure(.noResponse("\(error)")))
                    }
                }
            }
            var results = [Result<HTTP2Response, HTTP2TransportError>](repeating: .failure(.noResponse("unanswered")), count: requests.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }
}
