// Rate plan writes: the request bodies of POST and PATCH `/rate-plans`, and the
// rules on a plan's fields. A POST is turned into a complete set of fields with the defaults; a PATCH is merged
// onto the stored plan; either way the whole result is checked, so a plan is valid after every write.
export * from "./ratePlan/bodies.js"
export * from "./ratePlan/fields.js"
export * from "./ratePlan/rules.js"
export * from "./ratePlan/update.js"
