import HTTPTypes
import HeraldTestSupport
import Testing

extension TestBackend: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
