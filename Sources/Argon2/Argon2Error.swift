internal import CArgon2

/// Why libargon2 (or reading a PHC string) failed. The cases are stable; none carries the password.
public enum Argon2Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The encoded string is not an Argon2id PHC string (`$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>`).
    case malformedHash
    /// Memory, iterations, lanes, salt or output length outside what libargon2 accepts.
    case parametersOutOfRange
    /// libargon2 could not allocate the memory the parameters ask for.
    case outOfMemory
    /// libargon2 could not start or join its lane threads.
    case threadFailure
    /// Any other libargon2 status (`argon2_error_codes`).
    case library(code: Int32)

    /// The error for a libargon2 status other than `ARGON2_OK` and `ARGON2_VERIFY_MISMATCH`.
    init(status: Int32) {
        switch argon2_error_codes(rawValue: status) {
        case ARGON2_DECODING_FAIL, ARGON2_DECODING_LENGTH_FAIL, ARGON2_INCORRECT_TYPE:
            self = .malformedHash
        case ARGON2_OUTPUT_TOO_SHORT, ARGON2_OUTPUT_TOO_LONG, ARGON2_PWD_TOO_LONG, ARGON2_SALT_TOO_SHORT,
             ARGON2_SALT_TOO_LONG, ARGON2_TIME_TOO_SMALL, ARGON2_TIME_TOO_LARGE, ARGON2_MEMORY_TOO_LITTLE,
             ARGON2_MEMORY_TOO_MUCH, ARGON2_LANES_TOO_FEW, ARGON2_LANES_TOO_MANY, ARGON2_THREADS_TOO_FEW,
             ARGON2_THREADS_TOO_MANY:
            self = .parametersOutOfRange
        case ARGON2_MEMORY_ALLOCATION_ERROR:
            self = .outOfMemory
        case ARGON2_THREAD_FAIL:
            self = .threadFailure
        default:
            self = .library(code: status)
        }
    }

    public var description: String {
        switch self {
        case .malformedHash: "Argon2: not an Argon2id PHC string"
        case .parametersOutOfRange: "Argon2: parameters out of range"
        case .outOfMemory: "Argon2: out of memory"
        case .threadFailure: "Argon2: thread failure"
        case .library(let code): "Argon2: \(String(cString: argon2_error_message(code)))"
        }
    }
}
