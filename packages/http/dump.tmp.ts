import * as OpenApi from "@effect/platform/OpenApi"
import { HotelApi } from "./src/Api.js"
console.log(JSON.stringify(OpenApi.fromApi(HotelApi), null, 2))
