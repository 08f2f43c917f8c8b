import _ from "lodash"; // want "Forbidden by policy.forbidden-imports: lodash"
import fp from 'lodash/fp'; // want "forbidden-imports: lodash"
const leftPad = require("left-pad"); // want "forbidden-imports: left-pad"
import { lodashLike } from "lodash-es";
const note = "import from 'lodash'";
