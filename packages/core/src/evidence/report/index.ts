// The claim report's building blocks, for other pages that show an alert the same way (the incident page).
export { positionText, reportedText } from "./event-section.js";
export { escapeHtml, factList } from "./markup.js";
export type { ReportTrackPoint } from "./model.js";
export { BASE_STYLE } from "./report-style.js";
export { instantInBothZones, rangeInBothZones } from "./report-times.js";
export { type SpeedChart, speedChartSvg } from "./speed-chart-svg.js";
export { openStreetMapUrl, trackMapSvg } from "./track-map-svg.js";
