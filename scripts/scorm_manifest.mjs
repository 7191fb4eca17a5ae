// The text files of a SCORM package (scripts/scorm.mjs): imsmanifest.xml for SCORM 1.2 and for SCORM
// 2004 4th edition (one organization, one item, one SCO resource that lists every file, and the
// author's mastery score where the version has a place for it), and scorm.html, the launch page that
// opens the playground with the LMS flag and the view.
import { esc } from '../web/src/export/xml.js';

const IDENT = 'attention-playground';

/** The resource's <file> list, indented. */
const fileList = (files) => files.map((f) => `      <file href="${esc(f)}"/>`).join('\n');

/** SCORM 1.2 (IMS CP 1.1.2 with ADL's adlcp): adlcp:masteryscore on the item, 0–100. */
export function manifest12({ chapter, title, mastery, files }) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${IDENT}-${esc(chapter)}-scorm12" version="1.0"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="org-${esc(chapter)}">
    <organization identifier="org-${esc(chapter)}">
      <title>${esc(title)}</title>
      <item identifier="item-${esc(chapter)}" identifierref="sco-${esc(chapter)}" isvisible="true">
        <title>${esc(title)}</title>
        <adlcp:masteryscore>${mastery}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco-${esc(chapter)}" type="webcontent" adlcp:scormtype="sco" href="scorm.html">
${fileList(files)}
    </resource>
  </resources>
</manifest>
`;
}

/**
 * SCORM 2004 4th edition (IMS CP 1.1 with adlcp v1p3 and IMS Simple Sequencing): the mastery score is
 * the primary objective's minNormalizedMeasure (0–1), which the LMS gives the SCO as cmi.scaled_passing_score.
 */
export function manifest2004({ chapter, title, mastery, files }) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${IDENT}-${esc(chapter)}-scorm2004" version="1"
    xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
    xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
    xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
    xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="org-${esc(chapter)}">
    <organization identifier="org-${esc(chapter)}">
      <title>${esc(title)}</title>
      <item identifier="item-${esc(chapter)}" identifierref="sco-${esc(chapter)}">
        <title>${esc(title)}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="mastery" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${mastery / 100}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco-${esc(chapter)}" type="webcontent" adlcp:scormType="sco" href="scorm.html">
${fileList(files)}
    </resource>
  </resources>
</manifest>
`;
}

/** scorm.html: opens index.html in the same frame with ?lms=<version>&mastery=<m> (and lesson=<file>) and the view's hash. */
export function launchPage({ title, version, mastery, hash, lesson = null }) {
  const target = `index.html?lms=${version}&mastery=${mastery}${lesson ? `&lesson=${encodeURIComponent(lesson)}` : ''}#${hash}`;
  return `<!doctype html>
<!-- The SCO's launch page: the LMS opens it; it opens the playground in the same frame, which finds the LMS's API. -->
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<script>location.replace(${JSON.stringify(target).replace(/</g, '\\u003c')});</script>
</head><body><p><a href="${esc(target)}">Open ${esc(title)}</a></p></body></html>
`;
}
