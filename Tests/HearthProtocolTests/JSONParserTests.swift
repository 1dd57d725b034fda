import Dispatch
import Foundation
import HearthProtocol
import Testing

/// A JSON text for a table: a name (after JSONTestSuite's y_/n_/i_ files where there is one) and its bytes.
struct JSONText: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]

    init(_ name: String, _ text: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }

    init(_ name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// `prefix` + `bytes` + `suffix`, for invalid UTF-8 inside otherwise valid text.
    init(_ name: String, _ prefix: String, _ bytes: [UInt8], _ suffix: String) {
        self.name = name
        self.bytes = Array(prefix.utf8) + bytes + Array(suffix.utf8)
    }

    var testDescription: String { name }
}

/// True when `a` and `b` are the same JSON value with byte-identical strings and keys (`String`'s `==` would also
/// call canonically equivalent strings equal).
func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)):
        return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(identical)
    case (.object(let x), .object(let y)):
        guard Set(x.keys.map { Array($0.utf8) }) == Set(y.keys.map { Array($0.utf8) }) else { return false }
        return x.allSatisfy { key, value in y[key].map { identical(value, $0) } ?? false }
    case (.double(let x), .double(let y)):
        return x == y && x.sign == y.sign
    default:
        return a == b
    }
}

@Suite("JSONValue(parsing:): what RFC 8259 accepts")
struct JSONParserAcceptTests {
    static let accepted: [(JSONText, JSONValue)] = [
        // Structure.
        (JSONText("y_structure_lonely_false", "false"), false),
        (JSONText("y_structure_lonely_true", "true"), true),
        (JSONText("y_structure_lonely_null", "null"), nil),
        (JSONText("y_structure_lonely_int", "42"), 42),
        (JSONText("y_structure_lonely_negative_real", "-0.1"), .double(-0.1)),
        (JSONText("y_structure_lonely_string", #""asd""#), "asd"),
        (JSONText("y_structure_string_empty", #""""#), ""),
        (JSONText("y_structure_whitespace_array", " [] "), []),
        (JSONText("y_structure_trailing_newline", "[\"a\"]\n"), ["a"]),
        (JSONText("y_structure_true_in_array", "[true]"), [true]),
        (JSONText("all four whitespace characters everywhere", " \t\r\n{ \t\r\n\"a\" \t\r\n: \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n} \t\r\n"),
         ["a": [1, 2]]),
        (JSONText("y_array_arraysWithSpaces", "[[]   ]"), [[]]),
        (JSONText("y_array_empty", "[]"), []),
        (JSONText("y_array_empty-string", #"[""]"#), [""]),
        (JSONText("y_array_heterogeneous", #"[null, 1, "1", {}]"#), [nil, 1, "1", .object([:])]),
        (JSONText("y_array_with_1_and_newline", "[1\n]"), [1]),
        (JSONText("y_array_with_leading_space", " [1]"), [1]),
        (JSONText("y_array_with_several_null", "[1,null,null,null,2]"), [1, nil, nil, nil, 2]),
        (JSONText("y_array_with_trailing_space", "[2] "), [2]),
        (JSONText("y_object_basic", #"{"asd":"sdf"}"#), ["asd": "sdf"]),
        (JSONText("y_object_simple", #"{"a":[]}"#), ["a": []]),
        (JSONText("y_object_empty", "{}"), .object([:])),
        (JSONText("y_object_empty_key", #"{"":0}"#), ["": 0]),
        (JSONText("y_object_escaped_null_in_key", #"{"foo\u0000bar": 42}"#), ["foo\u{0}bar": 42]),
        (JSONText("y_object_duplicated_key (the last value wins)", #"{"a":"b","a":"c"}"#), ["a": "c"]),
        (JSONText("y_object_duplicated_key_and_value", #"{"a":"b","a":"b"}"#), ["a": "b"]),
        (JSONText("duplicated key, nested (the last value wins)", #"{"a":{"x":1},"b":2,"a":{"y":[3]}}"#),
         ["a": ["y": [3]], "b": 2]),
        (JSONText("y_object_extreme_numbers", #"{ "min": -1.0e+28, "max": 1.0e+28 }"#),
         ["min": .double(-1.0e28), "max": .double(1.0e28)]),
        (JSONText("nested objects and arrays", #"{"a":{"b":{"c":[1,{"d":null}]}},"e":[[],[{}]]}"#),
         ["a": ["b": ["c": [1, ["d": nil]]]], "e": [[], [.object([:])]]]),

        // Numbers: integer literals that fit in Int64 are .integer, everything else .double.
        (JSONText("y_number_simple_int", "[123]"), [123]),
        (JSONText("y_number_negative_int", "[-123]"), [-123]),
        (JSONText("y_number_negative_one", "[-1]"), [-1]),
        (JSONText("y_number_minus_zero", "[-0]"), [0]),
        (JSONText("y_number_after_space", "[ 4]"), [4]),
        (JSONText("zero", "0"), 0),
        (JSONText("Int64.max", "9223372036854775807"), .integer(.max)),
        (JSONText("Int64.min", "-9223372036854775808"), .integer(.min)),
        (JSONText("19 digits", "1000000000000000000"), .integer(1_000_000_000_000_000_000)),
        (JSONText("y_number_simple_real", "[123.456789]"), [.double(123.456789)]),
        (JSONText("y_number_negative_zero", "[-0.0]"), [.double(-0.0)]),
        (JSONText("a fraction that is a whole number", "1.0"), .double(1)),
        (JSONText("y_number_int_with_exp", "[20e1]"), [.double(200)]),
        (JSONText("y_number_0e+1", "[0e+1]"), [.double(0)]),
        (JSONText("y_number_0e1", "[0e1]"), [.double(0)]),
        (JSONText("y_number", "[123e65]"), [.double(123e65)]),
        (JSONText("y_number_real_capital_e", "[1E22]"), [.double(1e22)]),
        (JSONText("y_number_real_capital_e_neg_exp", "[1E-2]"), [.double(1e-2)]),
        (JSONText("y_number_real_capital_e_pos_exp", "[1E+2]"), [.double(1e2)]),
        (JSONText("y_number_real_exponent", "[123e45]"), [.double(123e45)]),
        (JSONText("y_number_real_fraction_exponent", "[123.456e78]"), [.double(123.456e78)]),
        (JSONText("y_number_real_neg_exp", "[1e-2]"), [.double(1e-2)]),
        (JSONText("y_number_real_pos_exponent", "[1e+2]"), [.double(1e2)]),
        (JSONText("y_number_double_close_to_zero",
                  "[-0.000000000000000000000000000000000000000000000000000000000000000000000000000001]"),
         [.double(-1e-78)]),
        (JSONText("largest finite double", "1.7976931348623157e308"), .double(.greatestFiniteMagnitude)),
        (JSONText("smallest subnormal double", "5e-324"), .double(.leastNonzeroMagnitude)),
        (JSONText("rounded to the nearest double", "0.1000000000000000055511151231257827"), .double(0.1)),

        // Strings and escapes.
        (JSONText("y_string_simple_ascii", #"["asd "]"#), ["asd "]),
        (JSONText("y_string_space", #"" ""#), " "),
        (JSONText("y_string_allowed_escapes", #"["\"\\\/\b\f\n\r\t"]"#), ["\"\\/\u{8}\u{C}\n\r\t"]),
        (JSONText("y_string_backslash_doublequotes", #"["\""]"#), ["\""]),
        (JSONText("y_string_backslash_and_u_escaped_zero", #"["\\u0000"]"#), ["\\u0000"]),
        (JSONText("y_string_double_escape_a", #"["\\a"]"#), ["\\a"]),
        (JSONText("y_string_double_escape_n", #"["\\n"]"#), ["\\n"]),
        (JSONText("y_string_comments", #"["a/*b*/c/*d//e"]"#), ["a/*b*/c/*d//e"]),
        (JSONText("y_string_null_escape", #"["\u0000"]"#), ["\u{0}"]),
        (JSONText("y_string_escaped_control_character", #"["\u0012"]"#), ["\u{12}"]),
        (JSONText("y_string_one-byte-utf-8", #"["\u002c"]"#), [","]),
        (JSONText("y_string_two-byte-utf-8", #"["\u0123"]"#), ["\u{123}"]),
        (JSONText("y_string_three-byte-utf-8", #"["\u0821"]"#), ["\u{821}"]),
        (JSONText("y_string_1_2_3_bytes_UTF-8_sequences", #"["\u0060\u012a\u12AB"]"#), ["\u{60}\u{12A}\u{12AB}"]),
        (JSONText("y_string_uEscape", #"["\u0061\u30af\u30EA\u30b9"]"#), ["a\u{30AF}\u{30EA}\u{30B9}"]),
        (JSONText("y_string_unicodeEscapedBackslash", #"["\u005C"]"#), ["\\"]),
        (JSONText("y_string_unicode_escaped_double_quote", #"["\u0022"]"#), ["\""]),
        (JSONText("y_string_nbsp_uescaped", #"["new\u00A0line"]"#), ["new\u{A0}line"]),
        (JSONText("y_string_uescaped_newline", #"["new\u000Aline"]"#), ["new\nline"]),
        (JSONText("y_string_escaped_noncharacter", #"["\uFFFF"]"#), ["\u{FFFF}"]),
        (JSONText("y_string_accepted_surrogate_pair", #"["\uD801\udc37"]"#), ["\u{10437}"]),
        (JSONText("y_string_accepted_surrogate_pairs", #"["\ud83d\ude39\ud83d\udc8d"]"#), ["\u{1F639}\u{1F48D}"]),
        (JSONText("y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF", #"["\uD834\uDd1e"]"#), ["\u{1D11E}"]),
        (JSONText("y_string_last_surrogates_1_and_2", #"["\uDBFF\uDFFF"]"#), ["\u{10FFFF}"]),
        (JSONText("y_string_unicode_U+10FFFE_nonchar", #"["\uDBFF\uDFFE"]"#), ["\u{10FFFE}"]),
        (JSONText("escapes between raw text", #""a\tb\u00e9c\/d""#), "a\tb\u{E9}c/d"),
        (JSONText("y_string_pi", #"["π"]"#), ["\u{3C0}"]),
        (JSONText("y_string_utf8", #"["€𝄞"]"#), ["\u{20AC}\u{1D11E}"]),
        (JSONText("y_string_unicode_2", #"["⍂㈴⍂"]"#), ["\u{2342}\u{3234}\u{2342}"]),
        (JSONText("y_string_u+2028_line_sep", "[\"\u{2028}\"]"), ["\u{2028}"]),
        (JSONText("y_string_u+2029_par_sep", "[\"\u{2029}\"]"), ["\u{2029}"]),
        (JSONText("y_string_unescaped_char_delete", "[\"\u{7F}\"]"), ["\u{7F}"]),
        (JSONText("y_string_with_del_character", "[\"a\u{7F}a\"]"), ["a\u{7F}a"]),
        (JSONText("y_string_nonCharacterInUTF-8_U+FFFF", #"[""#, [0xEF, 0xBF, 0xBF], #""]"#), ["\u{FFFF}"]),
        (JSONText("y_string_nonCharacterInUTF-8_U+10FFFF", #"[""#, [0xF4, 0x8F, 0xBF, 0xBF], #""]"#), ["\u{10FFFF}"]),
        (JSONText("UTF-8 boundaries: U+0080, U+07FF", #"""#, [0xC2, 0x80, 0xDF, 0xBF], #"""#), "\u{80}\u{7FF}"),
        (JSONText("UTF-8 boundaries: U+0800, U+D7FF, U+E000", #"""#, [0xE0, 0xA0, 0x80, 0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80], #"""#),
         "\u{800}\u{D7FF}\u{E000}"),
        (JSONText("UTF-8 boundaries: U+10000", #"""#, [0xF0, 0x90, 0x80, 0x80], #"""#), "\u{10000}"),
        (JSONText("long ASCII string with specials at every offset of an 8-byte word",
                  #""0123456789abcdef\"01234567\\0123\n456789abcdef\/0123456\u0041z""#),
         "0123456789abcdef\"01234567\\0123\n456789abcdef/0123456Az"),
        (JSONText("non-ASCII right after a run of ASCII", "\"abcdefghijklmnopé\u{1F600}abcdefgh\""),
         "abcdefghijklmnop\u{E9}\u{1F600}abcdefgh"),
        (JSONText("a combining sequence is kept as written", "\"e\u{301}\""), "e\u{301}"),
    ]

    @Test("accepts valid JSON", arguments: accepted)
    func accepts(text: JSONText, expected: JSONValue) throws {
        let value = try JSONValue(parsing: text.bytes)
        #expect(identical(value, expected), "\(value) != \(expected)")
    }

    @Test("implementation-defined: integers beyond Int64 become doubles")
    func bigIntegers() throws {
        // i_number_too_big_pos_int, i_number_too_big_neg_int, i_number_very_big_negative_int, and Int64's edges.
        for text in [
            "100000000000000000000", "-123123123123123123123123123123", "-237462374673276894279832749832423479823246327846",
            "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        ] {
            #expect(try JSONValue(parsing: Array("[\(text)]".utf8)) == [.double(Double(text)!)], "\(text)")
        }
    }

    @Test("implementation-defined: numbers too small for Double become zero")
    func underflow() throws {
        // i_number_double_huge_neg_exp, i_number_real_underflow.
        #expect(try JSONValue(parsing: Array("[123.456e-789]".utf8)) == [.double(0)])
        #expect(try JSONValue(parsing: Array("[123e-10000000]".utf8)) == [.double(0)])
        #expect(try JSONValue(parsing: Array("-1e-400".utf8)) == .double(-0.0))
    }

    @Test("implementation-defined: nesting is limited to 512 arrays and objects")
    func nestingLimit() throws {
        let depth = JSONValue.maximumNestingDepth
        #expect(depth == 512)
        // i_structure_500_nested_arrays, and exactly at the limit.
        for levels in [500, depth] {
            var value = try JSONValue(parsing: Array((String(repeating: "[", count: levels) + String(repeating: "]", count: levels)).utf8))
            var count = 1
            while case .array(let elements) = value, let first = elements.first {
                value = first
                count += 1
            }
            #expect(count == levels)
        }
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(try JSONValue(parsing: Array(objects.utf8)).objectValue?["a"] != nil)
    }

    @Test("reads Data, Data slices, [UInt8] and non-contiguous bytes alike")
    func inputKinds() throws {
        let text = #"{"a":[1,"é",2.5]}"#
        let expected: JSONValue = ["a": [1, "é", .double(2.5)]]
        #expect(try JSONValue(parsing: Data(text.utf8)) == expected)
        #expect(try JSONValue(parsing: Array(text.utf8)) == expected)
        #expect(try JSONValue(parsing: Array(text.utf8)[...]) == expected)
        let padded = Data(("xxxx" + text + "yy").utf8)
        #expect(try JSONValue(parsing: padded[4..<(padded.count - 2)]) == expected)
        // Two regions: parsed through a contiguous copy.
        let bytes = Array(text.utf8)
        var chunked = DispatchData.empty
        bytes[..<7].withUnsafeBytes { chunked.append($0) }
        bytes[7...].withUnsafeBytes { chunked.append($0) }
        #expect(try JSONValue(parsing: chunked) == expected)
        // Offsets count from the start of the slice.
        #expect(throws: JSONValue.ParseError(offset: 1, reason: .expectedValue)) {
            try JSONValue(parsing: Data("xx[,]".utf8)[2...])
        }
    }

    @Test("JSONValue stays Codable inside other Codable types")
    func codable() throws {
        struct Envelope: Codable, Equatable {
            var name: String
            var extra: JSONValue
        }
        let envelope = Envelope(name: "n", extra: ["a": [1, .double(1.5), "x", nil, true]])
        let data = try JSONEncoder().encode(envelope)
        #expect(try JSONDecoder().decode(Envelope.self, from: data) == envelope)
    }
}

@Suite("JSONValue(parsing:): what RFC 8259 rejects, and where")
struct JSONParserRejectTests {
    typealias Reason = JSONValue.ParseError.Reason

    static let rejected: [(JSONText, Int, Reason)] = [
        // Structure.
        (JSONText("n_structure_no_data", ""), 0, .unexpectedEnd),
        (JSONText("n_single_space", " "), 1, .unexpectedEnd),
        (JSONText("only whitespace", " \t\r\n"), 4, .unexpectedEnd),
        (JSONText("n_structure_lone-open-bracket", "["), 1, .unexpectedEnd),
        (JSONText("n_structure_unclosed_array", "[1"), 2, .unexpectedEnd),
        (JSONText("n_array_unclosed_with_new_lines", "[1,\n1\n,1"), 8, .unexpectedEnd),
        (JSONText("n_array_extra_comma", #"["",]"#), 4, .expectedValue),
        (JSONText("n_array_number_and_comma", "[1,]"), 3, .expectedValue),
        (JSONText("n_array_just_comma", "[,]"), 1, .expectedValue),
        (JSONText("n_array_double_comma", "[1,,2]"), 3, .expectedValue),
        (JSONText("n_array_1_true_without_comma", "[1 true]"), 3, .expectedCommaOrEndOfArray),
        (JSONText("n_array_colon_instead_of_comma", #"["": 1]"#), 3, .expectedCommaOrEndOfArray),
        (JSONText("n_array_items_separated_by_semicolon", "[1:2]"), 2, .expectedCommaOrEndOfArray),
        (JSONText("n_structure_array_with_extra_array_close", "[1]]"), 3, .trailingContent),
        (JSONText("n_structure_close_unopened_array", "1]"), 1, .trailingContent),
        (JSONText("n_structure_double_array", "[][]"), 2, .trailingContent),
        (JSONText("n_structure_end_array", "]"), 0, .expectedValue),
        (JSONText("n_structure_array_trailing_garbage", "[1]x"), 3, .trailingContent),
        (JSONText("n_structure_object_followed_by_closing_object", "{}}"), 2, .trailingContent),
        (JSONText("n_structure_object_with_trailing_garbage", #"{"a": true} "x""#), 12, .trailingContent),
        (JSONText("n_structure_trailing_#", ##"{"a":"b"}#{}"##), 9, .trailingContent),
        (JSONText("n_object_trailing_comment", #"{"a":"b"}/**/"#), 9, .trailingContent),
        (JSONText("n_object_trailing_comment_slash_open", #"{"a":"b"}//"#), 9, .trailingContent),
        (JSONText("n_structure_object_with_comment", #"{"a":/*comment*/"b"}"#), 5, .expectedValue),
        (JSONText("two top-level values", "1 2"), 2, .trailingContent),
        (JSONText("n_structure_angle_bracket_.", "<.>"), 0, .expectedValue),
        (JSONText("n_structure_null-byte-outside-string", bytes: [0x5B, 0x00, 0x5D]), 1, .expectedValue),
        (JSONText("n_multidigit_number_then_00", bytes: [0x31, 0x32, 0x33, 0x00]), 3, .trailingContent),
        (JSONText("n_structure_whitespace_formfeed", "[\u{0C}]"), 1, .expectedValue),
        (JSONText("vertical tab is not whitespace", "[\u{0B}1]"), 1, .expectedValue),
        (JSONText("n_structure_whitespace_U+2060_word_joiner", "[\u{2060}]"), 1, .expectedValue),
        (JSONText("no-break space is not whitespace", "[\u{A0}1]"), 1, .expectedValue),
        (JSONText("n_structure_unicode-identifier", "\u{E5}"), 0, .expectedValue),
        (JSONText("n_structure_capitalized_True", "[True]"), 1, .expectedValue),
        (JSONText("n_incomplete_false", "[fals]"), 5, .invalidLiteral),
        (JSONText("n_incomplete_null", "[nul]"), 4, .invalidLiteral),
        (JSONText("n_incomplete_true", "[tru]"), 4, .invalidLiteral),
        (JSONText("truncated literal", "tru"), 3, .unexpectedEnd),
        (JSONText("n_structure_object_unclosed_no_value", #"{"":"#), 4, .unexpectedEnd),
        (JSONText("n_object_missing_value", #"{"a":"#), 5, .unexpectedEnd),
        (JSONText("n_structure_unclosed_object", #"{"asd":"asd""#), 12, .unexpectedEnd),
        (JSONText("n_structure_comma_instead_of_closing_brace", #"{"x": true,"#), 11, .unexpectedEnd),
        (JSONText("n_object_trailing_comma", #"{"id":0,}"#), 8, .expectedKey),
        (JSONText("n_object_several_trailing_commas", #"{"id":0,,,,,}"#), 8, .expectedKey),
        (JSONText("trailing comma in a nested array", #"{"a":[1,]}"#), 8, .expectedValue),
        (JSONText("n_object_non_string_key", "{1:1}"), 1, .expectedKey),
        (JSONText("n_object_single_quote", "{'a':0}"), 1, .expectedKey),
        (JSONText("n_object_unquoted_key", #"{a: "b"}"#), 1, .expectedKey),
        (JSONText("n_object_missing_key", #"{:"b"}"#), 1, .expectedKey),
        (JSONText("n_object_missing_colon", "{\"a\" b}"), 5, .expectedColon),
        (JSONText("n_object_comma_instead_of_colon", #"{"x", null}"#), 4, .expectedColon),
        (JSONText("n_object_double_colon", #"{"x"::"b"}"#), 5, .expectedValue),
        (JSONText("n_object_missing_semicolon", #"{"a" "b"}"#), 5, .expectedColon),
        (JSONText("n_object_two_commas_in_a_row", #"{"a":"b",,"c":"d"}"#), 9, .expectedKey),
        (JSONText("n_object_garbage_at_end", #"{"a":"a" 123}"#), 9, .expectedCommaOrEndOfObject),
        (JSONText("n_structure_open_array_object", #"[{"":[{"":"#), 10, .unexpectedEnd),
        (JSONText("n_structure_UTF8_BOM_no_data", bytes: [0xEF, 0xBB, 0xBF]), 0, .expectedValue),
        // i_structure_UTF-8_BOM_empty_object: implementation-defined; refused (nothing but whitespace is skipped).
        (JSONText("i_structure_UTF-8_BOM_empty_object", bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D]), 0, .expectedValue),
        // i_string_utf16LE_no_BOM, i_string_utf16BE_no_BOM: implementation-defined; only UTF-8 is read.
        (JSONText("i_string_utf16LE_no_BOM", bytes: [0x5B, 0x00, 0x22, 0x00, 0x22, 0x00, 0x5D, 0x00]), 1, .expectedValue),
        (JSONText("i_string_utf16BE_no_BOM", bytes: [0x00, 0x5B, 0x00, 0x22, 0x00, 0x22, 0x00, 0x5D]), 0, .expectedValue),

        // Numbers.
        (JSONText("n_number_+1", "[+1]"), 1, .expectedValue),
        (JSONText("n_number_++", "[++1234]"), 1, .expectedValue),
        (JSONText("n_number_with_leading_zero", "[012]"), 2, .invalidNumber),
        (JSONText("n_number_-01", "[-01]"), 3, .invalidNumber),
        (JSONText("n_number_neg_int_starting_with_zero", "[-012]"), 3, .invalidNumber),
        (JSONText("n_number_00.0", "00.0"), 1, .invalidNumber),
        (JSONText("n_number_-00e0", "-00e0"), 2, .invalidNumber),
        (JSONText("n_number_real_without_fractional_part", "[1.]"), 3, .invalidNumber),
        (JSONText("n_number_starting_with_dot", "[.123]"), 1, .expectedValue),
        (JSONText("n_number_.-1", "[.-1]"), 1, .expectedValue),
        (JSONText("n_number_0.e1", "[0.e1]"), 3, .invalidNumber),
        (JSONText("n_number_2.e3", "[2.e3]"), 3, .invalidNumber),
        (JSONText("n_number_1.0e", "[1.0e]"), 5, .invalidNumber),
        (JSONText("n_number_1.0e+", "[1.0e+]"), 6, .invalidNumber),
        (JSONText("n_number_1.0e-", "[1.0e-]"), 6, .invalidNumber),
        (JSONText("n_number_1eE2", "[1eE2]"), 3, .invalidNumber),
        (JSONText("n_number_0_capital_E+", "[0E+]"), 4, .invalidNumber),
        (JSONText("n_number_minus_space_1", "[- 1]"), 2, .invalidNumber),
        (JSONText("n_number_minus_sign_with_trailing_garbage", "[-foo]"), 2, .invalidNumber),
        (JSONText("n_number_-1.0.", "[-1.0.]"), 5, .expectedCommaOrEndOfArray),
        (JSONText("n_number_1_000", "[1 000.0]"), 3, .expectedCommaOrEndOfArray),
        (JSONText("n_number_expression", "[1+2]"), 2, .expectedCommaOrEndOfArray),
        (JSONText("n_number_hex_1_digit", "[0x1]"), 2, .expectedCommaOrEndOfArray),
        (JSONText("n_number_invalid-negative-real", "[-123.123foo]"), 9, .expectedCommaOrEndOfArray),
        (JSONText("n_number_Inf", "[Inf]"), 1, .expectedValue),
        (JSONText("n_number_infinity", "[Infinity]"), 1, .expectedValue),
        (JSONText("n_number_minus_infinity", "[-Infinity]"), 2, .invalidNumber),
        (JSONText("n_number_NaN", "[NaN]"), 1, .expectedValue),
        (JSONText("n_number_-NaN", "[-NaN]"), 2, .invalidNumber),
        (JSONText("n_number_U+FF11_fullwidth_digit_one", "[\u{FF11}]"), 1, .expectedValue),
        (JSONText("lone minus at the end", "-"), 1, .unexpectedEnd),
        (JSONText("fraction cut off", "2."), 2, .unexpectedEnd),
        (JSONText("exponent cut off", "2e"), 2, .unexpectedEnd),
        // i_number_*_huge_exp, i_number_real_*_overflow: implementation-defined; too large for Double is an error.
        (JSONText("i_number_huge_exp", "[0.4e" + String(repeating: "9", count: 120) + "]"), 1, .numberOutOfRange),
        (JSONText("i_number_neg_int_huge_exp", "[-1e+9999]"), 1, .numberOutOfRange),
        (JSONText("i_number_pos_double_huge_exp", "[1.5e+9999]"), 1, .numberOutOfRange),
        (JSONText("i_number_real_neg_overflow", "[-123123e100000]"), 1, .numberOutOfRange),
        (JSONText("i_number_real_pos_overflow", "[123123e100000]"), 1, .numberOutOfRange),
        (JSONText("just above the largest double", "1.8e308"), 0, .numberOutOfRange),
        (JSONText("a huge integer literal", String(repeating: "9", count: 400)), 0, .numberOutOfRange),

        // Strings and escapes.
        (JSONText("n_string_single_quote", "['single quote']"), 1, .expectedValue),
        (JSONText("n_string_single_doublequote", "\""), 1, .unexpectedEnd),
        (JSONText("n_string_start_escape_unclosed", #"["\"#), 3, .unexpectedEnd),
        (JSONText("n_string_incomplete_escape", #"["\"]"#), 5, .unexpectedEnd),
        (JSONText("unterminated long string", #""0123456789abcdef"#), 17, .unexpectedEnd),
        (JSONText("n_string_with_trailing_garbage", #"""x"#), 2, .trailingContent),
        (JSONText("n_string_no_quotes_with_bad_escape", #"[\n]"#), 1, .expectedValue),
        (JSONText("n_string_accentuated_char_no_quotes", "[\u{E9}]"), 1, .expectedValue),
        (JSONText("n_string_escape_x", #"["\x00"]"#), 2, .invalidEscape),
        (JSONText("n_string_escaped_emoji", "[\"\\\u{1F300}\"]"), 2, .invalidEscape),
        (JSONText("n_string_invalid_backslash_esc", #"["\a"]"#), 2, .invalidEscape),
        (JSONText("escaped single quote", #"["\'"]"#), 2, .invalidEscape),
        (JSONText("n_string_escaped_ctrl_char_tab", "[\"\\\t\"]"), 2, .invalidEscape),
        (JSONText("n_string_backslash_00", bytes: [0x5B, 0x22, 0x5C, 0x00, 0x22, 0x5D]), 2, .invalidEscape),
        (JSONText("n_string_invalid_utf8_after_escape", bytes: [0x5B, 0x22, 0x5C, 0xE5, 0x22, 0x5D]), 2, .invalidEscape),
        (JSONText("n_string_invalid_unicode_escape", #"["\uqqqq"]"#), 4, .invalidUnicodeEscape),
        (JSONText("n_string_incomplete_escaped_character", #"["\u00A"]"#), 7, .invalidUnicodeEscape),
        (JSONText("n_string_invalid-utf-8-in-escape", #"["\u"#, [0xE5], #""]"#), 4, .invalidUnicodeEscape),
        (JSONText("n_string_1_surrogate_then_escape_u1", #"["\uD800\u1"]"#), 11, .invalidUnicodeEscape),
        (JSONText("n_string_1_surrogate_then_escape_u1x", #"["\uD800\u1x"]"#), 11, .invalidUnicodeEscape),
        (JSONText("\\u cut off", #""\u12"#), 5, .unexpectedEnd),
        (JSONText("n_string_unescaped_tab", "[\"\t\"]"), 2, .controlCharacterInString),
        (JSONText("n_string_unescaped_newline", "[\"new\nline\"]"), 5, .controlCharacterInString),
        (JSONText("n_string_unescaped_ctrl_char", bytes: [0x5B, 0x22, 0x61, 0x00, 0x61, 0x22, 0x5D]), 3, .controlCharacterInString),
        (JSONText("unescaped U+001F after an escape", "\"\\n\u{1F}\""), 3, .controlCharacterInString),
        (JSONText("unescaped control character after 8 plain bytes", "\"abcdefgh\u{1}\""), 9, .controlCharacterInString),
        (JSONText("unescaped U+001F inside an 8-byte run", "\"abcdefg\u{1F}hijklmnop\""), 8, .controlCharacterInString),
        (JSONText("unescaped U+0010 inside an 8-byte run", "\"abcdefghijk\u{10}lmnop\""), 12, .controlCharacterInString),
        // i_string_*surrogate*: implementation-defined; a lone or mismatched surrogate is an error.
        (JSONText("i_string_1st_surrogate_but_2nd_missing", #"["\uDADA"]"#), 2, .loneSurrogate),
        (JSONText("i_string_1st_valid_surrogate_2nd_invalid", #"["\uD888\u1234"]"#), 2, .loneSurrogate),
        (JSONText("i_string_incomplete_surrogate_and_escape_valid", #"["\uD800\n"]"#), 2, .loneSurrogate),
        (JSONText("i_string_incomplete_surrogate_pair", #"["\uDd1ea"]"#), 2, .loneSurrogate),
        (JSONText("i_string_incomplete_surrogates_escape_valid", #"["\uD800\uD800\n"]"#), 2, .loneSurrogate),
        (JSONText("i_string_invalid_lonely_surrogate", #"["\ud800"]"#), 2, .loneSurrogate),
        (JSONText("i_string_invalid_surrogate", #"["\ud800abc"]"#), 2, .loneSurrogate),
        (JSONText("i_string_inverted_surrogates_U+1D11E", #"["\uDd1e\uD834"]"#), 2, .loneSurrogate),
        (JSONText("i_string_lone_second_surrogate", #"["\uDFAA"]"#), 2, .loneSurrogate),
        (JSONText("i_object_key_lone_2nd_surrogate", #"{"\uDFAA":0}"#), 2, .loneSurrogate),
        (JSONText("high surrogate, then 'u' and a low surrogate without the backslash", #"["\uD83Dxude00"]"#), 2, .loneSurrogate),
        (JSONText("high surrogate, then a character just above the low surrogates", #"["\uD800\uE000"]"#), 2, .loneSurrogate),
        (JSONText("high surrogate at the end of the string", #""ab\uD83D""#), 3, .loneSurrogate),
        // i_string_*utf-8* and friends: implementation-defined; invalid UTF-8 is an error.
        (JSONText("i_string_invalid_utf-8", #"[""#, [0xFF], #""]"#), 2, .invalidUTF8),
        (JSONText("i_string_iso_latin_1", #"[""#, [0xE9], #""]"#), 2, .invalidUTF8),
        (JSONText("i_string_lone_utf8_continuation_byte", #"[""#, [0x81], #""]"#), 2, .invalidUTF8),
        (JSONText("i_string_not_in_unicode_range", #"[""#, [0xF4, 0xBF, 0xBF, 0xBF], #""]"#), 2, .invalidUTF8),
        (JSONText("lead byte F5", #"[""#, [0xF5, 0x80, 0x80, 0x80], #""]"#), 2, .invalidUTF8),
        (JSONText("i_string_overlong_sequence_2_bytes", #"[""#, [0xC0, 0xAF], #""]"#), 2, .invalidUTF8),
        (JSONText("overlong 2 bytes, C1", #"[""#, [0xC1, 0xBF], #""]"#), 2, .invalidUTF8),
        (JSONText("overlong 3 bytes", #"[""#, [0xE0, 0x80, 0xAF], #""]"#), 2, .invalidUTF8),
        (JSONText("overlong 4 bytes", #"[""#, [0xF0, 0x80, 0x80, 0xAF], #""]"#), 2, .invalidUTF8),
        (JSONText("i_string_overlong_sequence_6_bytes", #"[""#, [0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF], #""]"#), 2, .invalidUTF8),
        (JSONText("i_string_overlong_sequence_6_bytes_null", #"[""#, [0xFC, 0x80, 0x80, 0x80, 0x80, 0x80], #""]"#), 2, .invalidUTF8),
        (JSONText("i_string_truncated-utf-8", #"[""#, [0xE0, 0xFF], #""]"#), 2, .invalidUTF8),
        (JSONText("i_string_UTF8_surrogate_U+D800", #"[""#, [0xED, 0xA0, 0x80], #""]"#), 2, .invalidUTF8),
        (JSONText("UTF-8 surrogate U+DFFF", #"[""#, [0xED, 0xBF, 0xBF], #""]"#), 2, .invalidUTF8),
        (JSONText("i_string_UTF-8_invalid_sequence", #"["日ш"#, [0xFA], #""]"#), 7, .invalidUTF8),
        (JSONText("continuation byte missing in a 4-byte sequence", #"[""#, [0xF0, 0x9F, 0x98, 0x22], #""]"#), 2, .invalidUTF8),
        (JSONText("third byte of three is a lead byte", #"[""#, [0xE2, 0x82, 0xC2, 0xA2], #""]"#), 2, .invalidUTF8),
        (JSONText("fourth byte of four is a lead byte", #"[""#, [0xF0, 0x9F, 0x98, 0xF0, 0x9F, 0x98, 0x80], #""]"#), 2, .invalidUTF8),
        (JSONText("sequence cut off by the end of the input", #"""#, [0xE2, 0x82], ""), 1, .invalidUTF8),
        (JSONText("invalid UTF-8 in a key", #"{""#, [0xC0, 0x80], #"":1}"#), 2, .invalidUTF8),
        (JSONText("invalid UTF-8 after an escape", #""\n"#, [0x80], #"""#), 3, .invalidUTF8),
        (JSONText("invalid UTF-8 after 8 plain bytes", #""abcdefgh"#, [0xC0, 0x80], #"""#), 9, .invalidUTF8),

        // Nesting.
        (JSONText("513 nested arrays", String(repeating: "[", count: 513) + String(repeating: "]", count: 513)), 512, .tooDeep),
        (JSONText("n_structure_100000_opening_arrays", String(repeating: "[", count: 100_000)), 512, .tooDeep),
        (JSONText("513 nested objects", String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)),
         512 * 5, .tooDeep),
        (JSONText("n_structure_open_array_object, 50000 times", String(repeating: #"[{"":"#, count: 50_000)), 256 * 5, .tooDeep),
    ]

    @Test("rejects invalid JSON with the offset and reason of the first problem", arguments: rejected)
    func rejects(text: JSONText, offset: Int, reason: Reason) {
        #expect(throws: JSONValue.ParseError(offset: offset, reason: reason)) {
            try JSONValue(parsing: text.bytes)
        }
    }

    @Test("an error's description is its offset and reason, never the text")
    func errorsCarryNoContent() {
        let secret = "s3cr3t-hunter2"
        let texts = [
            #"{"password":"\#(secret)\q"}"#, #"{"password":"\#(secret)"#, "{\"password\":\"\(secret)\n\"}",
            #"{"password":"\#(secret)"} \#(secret)"#, #"{"password":\#(secret)}"#, #"{"\#(secret)" 1}"#,
            #"[1,"\#(secret)",]"#, #"{"token":"\#(secret)\uD800"}"#, "\(secret)",
        ]
        for text in texts {
            do {
                _ = try JSONValue(parsing: Array(text.utf8))
                Issue.record("\(text) parsed")
            } catch {
                for description in ["\(error)", String(reflecting: error), error.localizedDescription, "\(error.reason)"] {
                    #expect(!description.contains("s3cr3t"), "\(description)")
                    #expect(!description.contains("hunter2"), "\(description)")
                }
                #expect("\(error)" == "invalid JSON at byte \(error.offset): \(error.reason)")
                #expect(error.offset >= 0 && error.offset <= text.utf8.count)
            }
        }
    }

    @Test("errors compare by offset and reason")
    func errorEquality() {
        let error = JSONValue.ParseError(offset: 3, reason: .invalidNumber)
        #expect(error == JSONValue.ParseError(offset: 3, reason: .invalidNumber))
        #expect(error != JSONValue.ParseError(offset: 4, reason: .invalidNumber))
        #expect(error != JSONValue.ParseError(offset: 3, reason: .invalidLiteral))
        #expect(Reason.tooDeep.description == "nesting too deep")
    }
}
