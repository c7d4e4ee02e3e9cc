# Import paths Effect 3 -> effect 4.1.0 (4.1 graduated the rc's effect/unstable/* paths: effect/http, effect/http-api, effect/sql, effect/cli, effect/reactivity).
s#"@effect/sql/(SqlClient|SqlError|Statement|SqlConnection|Migrator|SqlSchema|SqlResolver)"#"effect/sql/\1"#
s#"@effect/platform/(HttpApi|HttpApiGroup|HttpApiBuilder|HttpApiEndpoint|HttpApiSchema|HttpApiMiddleware|HttpApiError|HttpApiSecurity|HttpApiScalar|HttpApiClient|HttpApiSwagger|OpenApi)"#"effect/http-api/\1"#
s#"@effect/platform/(HttpServerRequest|HttpServerResponse|HttpServer|HttpRouter|HttpMiddleware|HttpServerError|HttpMethod|HttpClient|HttpClientRequest|HttpClientResponse|HttpClientError|Headers|FetchHttpClient|HttpBody|UrlParams|HttpTraceContext)"#"effect/http/\1"#
s#"@effect/platform/HttpApp"#"effect/http/HttpEffect"#
s#"@effect/platform/(FileSystem|Path)"#"effect/\1"#
s#"@effect/cli/Command"#"effect/cli/Command"#
s#"@effect/cli/Options"#"effect/cli/Flag"#
s#"@effect/cli/Args"#"effect/cli/Argument"#
s#"@effect/cli/ValidationError"#"effect/cli/CliError"#
s#"@effect/cli/HelpDoc"#"effect/cli/HelpDoc"#
s#"@effect/experimental/Reactivity"#"effect/reactivity/Reactivity"#
s#"effect/TestClock"#"effect/testing/TestClock"#
s#"effect/FastCheck"#"fast-check"#
s#"effect/Either"#"effect/Result"#
