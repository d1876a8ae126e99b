import NIOCore

/// One HTTP/2 frame as it travels (RFC 9113 §4.1): a 9-byte header (24-bit length, type, flags,
/// 31-bit stream id) and its payload. ``StreamsHandler`` reads and writes these straight off
/// and onto TLS.
struct HTTP2WireFrame {
    /// Frame types (RFC 9113 §6).
    enum Kind: UInt8 {
        case data = 0x0
        case headers = 0x1
        case priority = 0x2
        case rstStream = 0x3
        case settings = 0x4
        case pushPromise = 0x5
        case ping = 0x6
        case goAway = 0x7
        case windowUpdate = 0x8
        case continuation = 0x9
    }

    /// Frame flags (each means something for some types only).
    enum Flag {
        static let endStream: UInt8 = 0x1
        static let ack: UInt8 = 0x1
        static let endHeaders: UInt8 = 0x4
        static let padded: UInt8 = 0x8
        static let priority: UInt8 = 0x20
    }

    /// SETTINGS parameters (RFC 9113 §6.5.2).
    enum Setting {
        static let headerTableSize: UInt16 = 0x1
        static let enablePush: UInt16 = 0x2
        static let maxConcurrentStreams: UInt16 = 0x3
        static let initialWindowSize: UInt16 = 0x4
        static let maxFrameSize: UInt16 = 0x5
    }

    /// Error codes of RST_STREAM and GOAWAY (RFC 9113 §7).
    enum ErrorCode {
        static let noError: UInt32 = 0x0
        static let protocolError: UInt32 = 0x1
        static let flowControlError: UInt32 = 0x3
        static let frameSizeError: UInt32 = 0x6
        static let refusedStream: UInt32 = 0x7
        static let cancel: UInt32 = 0x8
        static let compressionError: UInt32 = 0x9

        private static let names = [
            "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR",
            "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
        ]

        static func name(_ code: UInt32) -> String {
            code < names.count ? names[Int(code)] : "error 0x\(String(code, radix: 16))"
        }
    }

    /// The connection preface a client sends first (RFC 9113 §3.4), before its SETTINGS.
    static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    static let headerSize = 9
    /// The largest payload either side may send unless the receiver allows more; Herald allows
    /// no more and never sends more.
    static let maxPayloadSize = 16_384
    /// A window may not grow past this (RFC 9113 §6.9.1).
    static let maxWindowSize = Int(Int32.max)

    var type: UInt8
    var flags: UInt8
    var streamID: UInt32
    var payload: ByteBuffer

    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

    enum ReadError: Error {
        /// A frame longer than the receiver allows.
        case tooLarge(Int)
    }

    /// The next whole frame at the front of `buffer`, taken off it; nil while it is incomplete.
    static func read(from buffer: inout ByteBuffer) throws(ReadError) -> HTTP2WireFrame? {
        guard buffer.readableBytes >= headerSize,
            let high = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self),
            let low = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt16.self),
            let type = buffer.getInteger(at: buffer.readerIndex + 3, as: UInt8.self),
            let flags = buffer.getInteger(at: buffer.readerIndex + 4, as: UInt8.self),
            let streamID = buffer.getInteger(at: buffer.readerIndex + 5, as: UInt32.self)
        else { return nil }
        let length = Int(high) << 16 | Int(low)
        guard length <= maxPayloadSize else { throw .tooLarge(length) }
        guard buffer.readableBytes >= headerSize + length else { return nil }
        buffer.moveReaderIndex(forwardBy: headerSize)
        let payload = buffer.readSlice(length: length)!
        return HTTP2WireFrame(type: type, flags: flags, streamID: streamID & 0x7FFF_FFFF, payload: payload)
    }

    /// A DATA frame's data, its padding (PADDED) taken off; nil if the padding is longer than the
    /// frame (a protocol error).
    var data: ByteBuffer? {
        var data = payload
        return Self.unpad(&data, flags: flags) ? data : nil
    }

    /// A HEADERS frame's header block fragment, its padding and priority fields taken off; nil if
    /// they are longer than the frame (a protocol error).
    var headerFragment: ByteBuffer? {
        var fragment = payload
        guard Self.unpad(&fragment, flags: flags) else { return nil }
        if has(Flag.priority) {
            guard fragment.readableBytes >= 5 else { return nil }
            fragment.moveReaderIndex(forwardBy: 5)  // stream dependency and weight
        }
        return fragment
    }

    private static func unpad(_ payload: inout ByteBuffer, flags: UInt8) -> Bool {
        guard flags & Flag.padded != 0 else { return true }
        guard let padding = payload.readInteger(as: UInt8.self), Int(padding) <= payload.readableBytes else { return false }
        payload.moveWriterIndex(to: payload.writerIndex - Int(padding))
        return true
    }
}

extension ByteBuffer {
    /// Writes a frame's 9-byte header.
    mutating func writeHTTP2FrameHeader(length: Int, type: HTTP2WireFrame.Kind, flags: UInt8 = 0, streamID: UInt32) {
        writeInteger(UInt8(truncatingIfNeeded: length >> 16))
        writeInteger(UInt16(truncatingIfNeeded: length))
        writeInteger(type.rawValue)
        writeInteger(flags)
        writeInteger(streamID)
    }

    /// Writes a header block as one HEADERS frame, or past the payload size as HEADERS and the
    /// CONTINUATION frames that follow it at once (RFC 9113 §4.3); END_HEADERS on the last.
    mutating func writeHTTP2HeaderBlock(_ block: inout ByteBuffer, streamID: UInt32, endStream: Bool) {
        var type = HTTP2WireFrame.Kind.headers
        var flags = endStream ? HTTP2WireFrame.Flag.endStream : 0
        repeat {
            var piece = block.readSlice(length: min(block.readableBytes, HTTP2WireFrame.maxPayloadSize))!
            if block.readableBytes == 0 { flags |= HTTP2WireFrame.Flag.endHeaders }
            writeHTTP2FrameHeader(length: piece.readableBytes, type: type, flags: flags, streamID: streamID)
            writeBuffer(&piece)
            (type, flags) = (.continuation, 0)
        } while block.readableBytes > 0
    }

    /// Writes a frame whose payload is a run of 32-bit values (RST_STREAM, WINDOW_UPDATE, GOAWAY).
    mutating func writeHTTP2Frame(type: HTTP2WireFrame.Kind, flags: UInt8 = 0, streamID: UInt32, words: UInt32...) {
        writeHTTP2FrameHeader(length: 4 * words.count, type: type, flags: flags, streamID: streamID)
        for word in words { writeInteger(word) }
    }
}
