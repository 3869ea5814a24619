// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

public var hackVerbose = true
// ---- unsafe workaround: write URLProtocol.properties[.temporaryFileURL / .responseData] ----
// URLProtocol has an internal stored property `properties: [URLProtocol._PropertyKey: Any]`
// (enum _PropertyKey: String { case responseData, temporaryFileURL }).  We locate it with Mirror,
// find its offset inside the object by matching the dictionary's storage pointer, and mutate it
// through a typed pointer (so refcounting stays correct).
public protocol _DictOpen {
    var _bits: UInt { get }
    static func _set(at p: UnsafeMutableRawPointer, tag: UInt8, value: Any) -> Bool
}
extension Dictionary: _DictOpen where Value == Any {
    public var _bits: UInt { unsafeBitCast(self, to: UInt.self) }
    public static func _set(at p: UnsafeMutableRawPointer, tag: UInt8, value: Any) -> Bool {
        guard MemoryLayout<Key>.size == 1 else { return false }
        let key = unsafeBitCast(tag, to: Key.self)
        p.assumingMemoryBound(to: Self.self).pointee[key] = value
        return true
    }
}
public enum PropertyTag: UInt8 { case responseData = 0, temporaryFileURL = 1 }

/// Returns false if the layout is not what we expect.
public func hackSetProperty(_ proto: URLProtocol, _ tag: PropertyTag, _ value: Any) -> Bool {
    guard let any = mirrorChild(proto, "properties"), let dict = any as? _DictOpen else {
        log("hack: no 'properties' child or unexpected type"); return false
    }
    let bits = dict._bits
    let base = Unmanaged.passUnretained(proto).toOpaque()
    var matches: [Int] = []
    for off in stride(from: 16, to: 16 + 8 * 12, by: 8) where base.load(fromByteOffset: off, as: UInt.self) == bits {
        matches.append(off)
    }
    guard matches.count == 1 else { log("hack: could not locate field uniquely: \(matches)"); return false }
    if hackVerbose { log("hack: properties field at byte offset \(matches[0])") }
    return type(of: dict)._set(at: base + matches[0], tag: tag.rawValue, value: value)
}

