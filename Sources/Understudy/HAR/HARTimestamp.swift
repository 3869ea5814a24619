/// ISO 8601 dates as HAR files write them, parsed and formatted by arithmetic.
///
/// Exporters disagree on the details (Chrome writes `Z` and milliseconds, Firefox an offset,
/// mitmproxy microseconds), and `ISO8601DateFormatter` needs a separate configuration for each
/// variant and behaves differently across platforms. Doing the calendar arithmetic here keeps
/// parsing lenient and formatting byte-identical everywhere.
enum HARTimestamp {
  /// The date rounded to whole milliseconds, the precision a cassette keeps, so a value compares
  /// equal to itself after a round trip through a file.
  static func normalized(_ date: Date) -> Date {
    Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
  }

  /// The instants a cassette can hold, to the millisecond: the years 0000 to 9999 in UTC, the
  /// four digits every date in it is written with. Outside them a date could not be read back.
  static let writable: ClosedRange<Date> =
    Date(
      timeIntervalSince1970: Double(daysFromCivil(year: 0, month: 1, day: 1) * 86_400))...Date(
      timeIntervalSince1970: Double(daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400)
        - 0.001)

  /// Whether `date`, to the millisecond, is in ``writable``; never for an infinite or NaN one
  /// (`ClosedRange<Date>.contains` says yes to NaN).
  static func isWritable(_ date: Date) -> Bool {
    let seconds = normalized(date).timeIntervalSince1970
    return seconds >= writable.lowerBound.timeIntervalSince1970
      && seconds <= writable.upperBound.timeIntervalSince1970
  }

  /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, or `nil` for a date that is not ``isWritable(_:)``.
  static func format(_ date: Date) -> String? {
    guard isWritable(date) else { return nil }
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    let (seconds, millisecond) = milliseconds.floorDivided(by: 1000)
    let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
    let (year, month, day) = civilDate(fromDays: days)
    return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
      + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay % 3600 / 60, 2) + ":"
      + pad(secondOfDay % 60, 2) + "." + pad(millisecond, 3) + "Z"
  }

  /// Parses `yyyy-MM-ddTHH:mm[:ss[.fraction]][Z|±HH[:mm]]`; a missing zone is read as UTC.
  static func parse(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { parse(utf8: UnsafeRawBufferPointer($0)) }
  }

  /// ``parse(_:)`` on the text's UTF-8 bytes.
  static func parse(utf8 bytes: UnsafeRawBufferPointer) -> Date? {
    var scanner = DigitScanner(bytes)
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.skip("-"),
      let day = scanner.number(digits: 2), scanner.skip(anyOf: "Tt "),
      let hour = scanner.number(digits: 2), scanner.skip(":"),
      let minute = scanner.number(digits: 2)
    else { return nil }
    var second: Int64 = 0
    var fraction = 0.0
    if scanner.skip(":") {
      guard let value = scanner.number(digits: 2) else { return nil }
      second = value
      if scanner.skip(anyOf: ".,") {
        guard let value = scanner.fraction() else { return nil }
        fraction = value
      }
    }
    guard let offset = scanner.zoneOffsetSeconds(), scanner.isAtEnd,
      (1...12).contains(month), (1...daysInMonth(year, month)).contains(day),
      hour < 24, minute < 60, second <= 60
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return normalized(Date(timeIntervalSince1970: Double(seconds) + fraction))
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  private static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar, day 0 = 1970-01-01).
  private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func civilDate(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

/// Reads the fixed-width fields of a timestamp from its UTF-8 bytes.
private struct DigitScanner {
  private let bytes: UnsafeRawBufferPointer
  private var index = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { index == bytes.count }

  mutating func number(digits: Int) -> Int64? {
    guard index + digits <= bytes.count else { return nil }
    var value: Int64 = 0
    for byte in bytes[index..<index + digits] {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    index += digits
    return value
  }

  mutating func fraction() -> Double? {
    var value = 0.0
    var scale = 0.1
    let start = index
    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
      value += Double(bytes[index] - UInt8(ascii: "0")) * scale
      scale /= 10
      index += 1
    }
    return index > start ? value : nil
  }

  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }

  mutating func skip(anyOf characters: String) -> Bool {
    guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
    index += 1
    return true
  }

  /// The zone's offset east of UTC in seconds: `Z`, `±HH`, `±HHmm` or `±HH:mm`; none means UTC.
  mutating func zoneOffsetSeconds() -> Int64? {
    if isAtEnd || skip(anyOf: "Zz") { return 0 }
    guard index < bytes.count else { return nil }
    let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
    guard skip(anyOf: "+-"), let hours = number(digits: 2), hours < 24 else { return nil }
    var minutes: Int64 = 0
    if !isAtEnd {
      _ = skip(":")
      guard let value = number(digits: 2), value < 60 else { return nil }
      minutes = value
    }
    return sign * (hours * 3600 + minutes * 60)
  }
}

extension Int64 {
  /// Quotient and remainder rounded towards negative infinity, so dates before 1970 format right.
  fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
    let remainder = self % divisor
    return remainder < 0
      ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
  }
}
