# Mechanical Effect 3 -> 4 renames verified against effect 4.1.0 (trial branch e4trial).
# Either -> Result (Result<A, E> keeps Either's parameter order)
s#import \* as Either from "effect/Either"#import * as Result from "effect/Result"#
s/\bEither\.Either</Result.Result</g
s/\bEither\.left\(/Result.fail(/g
s/\bEither\.right\(/Result.succeed(/g
s/\bEither\.isLeft\b/Result.isFailure/g
s/\bEither\.isRight\b/Result.isSuccess/g
s/\bEither\.getLeft\b/Result.getFailure/g
s/\bEither\.getRight\b/Result.getSuccess/g
s/\bEither\.mapLeft\b/Result.mapError/g
s/\bEither\./Result./g
s/\bonLeft\b/onFailure/g
s/\bonRight\b/onSuccess/g
# BigDecimal
s/\bBigDecimal\.unsafeFromString\b/BigDecimal.fromStringUnsafe/g
s/\bBigDecimal\.unsafeFromNumber\b/BigDecimal.fromNumberUnsafe/g
s/\bBigDecimal\.unsafeDivide\b/BigDecimal.divideUnsafe/g
s/\bBigDecimal\.unsafeToNumber\b/BigDecimal.toNumberUnsafe/g
s/\bBigDecimal\.unsafeRemainder\b/BigDecimal.remainderUnsafe/g
s/\bBigDecimal\.lessThanOrEqualTo\b/BigDecimal.isLessThanOrEqualTo/g
s/\bBigDecimal\.greaterThanOrEqualTo\b/BigDecimal.isGreaterThanOrEqualTo/g
s/\bBigDecimal\.lessThan\b/BigDecimal.isLessThan/g
s/\bBigDecimal\.greaterThan\b/BigDecimal.isGreaterThan/g
# Option / Array / Effect
s/\bOption\.fromNullable\b/Option.fromNullishOr/g
s/\bOption\.getRight\b/Option.getSuccess/g
s/\bArray\.isNonEmptyReadonlyArray\b/Array.isReadonlyArrayNonEmpty/g
s/\bArr\.isNonEmptyReadonlyArray\b/Arr.isReadonlyArrayNonEmpty/g
s/\bEffect\.zipRight\b/Effect.andThen/g
s/\bSchema\.decodeUnknownEither\b/Schema.decodeUnknownResult/g
s/\bSchema\.decodeEither\b/Schema.decodeResult/g
