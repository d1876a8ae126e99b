import Foundation
import HeraldModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// JSON over HTTP with the session's bearer token; errors decoded into ``HeraldKitError``.
struct HTTPTransport: Sendable {
    let baseURL: URL
    let session: URLSession

    init(baseURL: URL, session: URLSession = URLSession(configuration: .ephemeral)) {
        self.baseURL = baseURL
        self.session = session
    }

    /// Sends a request; returns the decoded JSON object of a 2xx answer (empty for 204).
    func send(
        _ method: String,
        _ path: String,
        query: [URLQueryItem] = [],
        bearer: String?,
        body: JSONValue? = nil
    ) async throws(HeraldKitError) -> JSONObject {
        guard var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false) else {
            throw .transport("bad path \(path)")
        }
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else { throw .transport("bad query for \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.jsonBytes())
        }
        let (data, status) = try await perform(request)
        let object: JSONObject
        if data.isEmpty {
            object = [:]
        } else {
            guard let parsed = try? JSONValue(jsonBytes: Array(data)), case .object(let value) = parsed else {
                throw .invalidPayload("the server's answer to \(method) \(path) is not a JSON object")
            }
            object = value
        }
        guard (200..<300).contains(status) else {
            let error = object["error"]?.objectValue ?? [:]
            var details: [String: String] = [:]
            for (key, value) in error["details"]?.objectValue ?? [:] { details[key] = value.stringValue }
            throw .server(
                status: status,
                code: error["code"]?.stringValue ?? "http_\(status)",
                message: error["message"]?.stringValue ?? "HTTP \(status)",
                details: details
            )
        }
        return object
    }

    /// One request, on any platform: the completion-handler form is the one every Foundation has.
    private func perform(_ request: URLRequest) async throws(HeraldKitError) -> (Data, Int) {
        let result: Result<(Data, Int), HeraldKitError> = await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure(.transport(error.localizedDescription)))
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: .success((data ?? Data(), http.statusCode)))
                } else {
                    continuation.resume(returning: .failure(.transport("no HTTP response")))
                }
            }.resume()
        }
        return try result.get()
    }
}
