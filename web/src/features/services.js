// What the features' services (a row's `service`, its folder's service.js) add to the playground's hosts,
// derived from the table: the events the element re-dispatches, the page's frame posts to its host
// page and the widget may write to a trait, the members <attention-playground> offers, and the traits
// the widget hands in. The element,
// the page and the widget read these lists and name no feature.

import { FEATURES } from './index.js';

const hosts = FEATURES.filter((f) => f.service).map((f) => f.service);

/** type → detail mapper (the playground's detail → what a host passes on), for every event a feature emits. */
export const HOST_EVENTS = Object.freeze(Object.fromEntries(hosts.flatMap((h) => Object.entries(h.events ?? {}))));

/** Event types a notebook may declare as traits of the same name (the widget writes the host's detail there). */
export const WIDGET_TRAITS = Object.freeze(hosts.flatMap((h) => h.traits ?? []));

/** name → { get, element: { detached(scope, …args) } }: the members the element adds, with what each does while not in a document. */
export const ELEMENT_API = Object.freeze(Object.fromEntries(hosts.flatMap((h) => Object.entries(h.api ?? {}).filter(([, spec]) => spec.element))));

/** key → { take, refused }: the notebook traits a feature takes in (the widget calls take on load and on each change). */
export const WIDGET_INPUTS = Object.freeze(Object.fromEntries(hosts.flatMap((h) => Object.entries(h.widgetInputs ?? {}))));
