// The playground page: search as you type (or find words by meaning, the
// reverse lookup), entries, audio, thesaurus and usage, against this
// service's own API (same origin). No framework, no build step.
// Every string from the API is inserted as text, except the entry's
// htmlContent, which the API builds from an allow-list and guarantees safe.
(function () {
  "use strict";

  // The GraphQL explorer reads the same name to prefill its Authorization header.
  var KEY_NAME = "dictionary-api-key";
  var API = "/api/v1";
  var SEARCH_DELAY_MS = 250;
  var SUGGEST_DELAY_MS = 150;
  var KEY_DELAY_MS = 400;
  var USAGE_DELAY_MS = 600;

  var numberFormat = new Intl.NumberFormat("en");
  var languageNames = null;
  try {
    languageNames = new Intl.DisplayNames(["en"], { type: "language" });
  } catch (e) {
    languageNames = null;
  }

  function $(id) {
    return document.getElementById(id);
  }

  var el = {
    key: $("api-key"),
    keyToggle: $("key-toggle"),
    keyForget: $("key-forget"),
    usageEmpty: $("usage-empty"),
    usageList: $("usage-list"),
    usagePlan: $("usage-plan"),
    usageUsed: $("usage-used"),
    usageRemaining: $("usage-remaining"),
    usageReset: $("usage-reset"),
    usageMeter: $("usage-meter"),
    usageBar: $("usage-bar"),
    error: $("error"),
    errorTitle: $("error-title"),
    errorHint: $("error-hint"),
    form: $("search-form"),
    modeSearch: $("mode-search"),
    modeReverse: $("mode-reverse"),
    q: $("q"),
    qLabel: $("q-label"),
    searchHelp: $("search-help"),
    suggestions: $("suggestions"),
    random: $("random"),
    matchType: $("matchType"),
    matchTypeField: $("matchType-field"),
    lang: $("lang"),
    source: $("source"),
    pos: $("pos"),
    limit: $("limit"),
    hasAudio: $("hasAudio"),
    fuzzy: $("fuzzy"),
    fuzzyCheck: $("fuzzy-check"),
    group: $("group"),
    status: $("status"),
    results: $("results"),
    pager: $("pager"),
    prev: $("prev"),
    next: $("next"),
    range: $("range"),
    entry: $("entry"),
    entryStatus: $("entry-status"),
    entryBody: $("entry-body"),
    entryWord: $("entry-word"),
    entryPhonetic: $("entry-phonetic"),
    entryDictionary: $("entry-dictionary"),
    entryLangs: $("entry-langs"),
    entryPosRow: $("entry-pos-row"),
    entryPos: $("entry-pos"),
    entryDictionaryId: $("entry-dictionary-id"),
    entryAudio: $("entry-audio"),
    entryHtml: $("entry-html"),
    entryLists: $("entry-lists"),
    thesaurusStatus: $("thesaurus-status"),
    thesaurusGroups: $("thesaurus-groups"),
    rhymesStatus: $("rhymes-status"),
    rhymesGroups: $("rhymes-groups")
  };

  // What is searched: the form's values, the page and the open entry. Kept in
  // the URL's fragment (never the key), so a reload or a shared link shows the same.
  // The mode is "search" (headwords, GET /api/search) or "reverse" (the words
  // whose definition or translation says q, GET /api/reverse), which takes
  // the same filters but matchType and fuzzy.
  var state = {
    mode: "search",
    q: "",
    matchType: "prefix",
    lang: "",
    source: "",
    pos: "",
    hasAudio: false,
    fuzzy: true,
    // One result per word (group=word), each listing its dictionaries'
    // entries, or one per entry.
    group: false,
    limit: 20,
    offset: 0,
    entry: ""
  };

  // ---------------------------------------------------------------- helpers

  function make(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function debounce(fn, ms) {
    var timer = null;
    function run() {
      var args = arguments;
      clearTimeout(timer);
      timer = setTimeout(function () {
        timer = null;
        fn.apply(null, args);
      }, ms);
    }
    run.cancel = function () {
      clearTimeout(timer);
      timer = null;
    };
    return run;
  }

  function plural(n, one, many) {
    return numberFormat.format(n) + " " + (n === 1 ? one : many);
  }

  function languageName(code) {
    if (!code) return "";
    var name = "";
    try {
      name = languageNames ? languageNames.of(code) : "";
    } catch (e) {
      name = "";
    }
    return name && name !== code ? name : code;
  }

  function languagePair(source, target) {
    if (!target) return languageName(source) + " (" + source + ")";
    return languageName(source) + " → " + languageName(target) + " (" + source + "-" + target + ")";
  }

  function shortPair(source, target) {
    return target ? source + " → " + target : source;
  }

  function duration(seconds) {
    var s = Math.max(0, Math.round(Number(seconds) || 0));
    if (s < 90) return plural(s, "second", "seconds");
    if (s < 90 * 60) return plural(Math.round(s / 60), "minute", "minutes");
    if (s < 36 * 3600) return plural(Math.round(s / 3600), "hour", "hours");
    return plural(Math.round(s / 86400), "day", "days");
  }

  function formatDate(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) return String(iso);
    return d.toLocaleDateString("en", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
  }

  // ---------------------------------------------------------------- the key

  function getKey() {
    try {
      return (sessionStorage.getItem(KEY_NAME) || "").trim();
    } catch (e) {
      return "";
    }
  }

  function storeKey(value) {
    try {
      if (value) sessionStorage.setItem(KEY_NAME, value);
      else sessionStorage.removeItem(KEY_NAME);
    } catch (e) {
      // Storage disabled: the key then lives for this page only.
    }
  }

  // ---------------------------------------------------------------- the API

  function ApiError(status, message, retryAfter) {
    this.name = "ApiError";
    this.status = status;
    this.message = message;
    this.retryAfter = retryAfter;
  }

  // api(path, params, signal): the envelope of a GET to the API with the key,
  // or an ApiError carrying the envelope's own `error`.
  function api(path, params, signal) {
    var counted = path !== "/api/me/usage";
    var url = new URL(API + path, window.location.origin);
    Object.keys(params || {}).forEach(function (name) {
      var value = params[name];
      if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
    });
    var headers = { Accept: "application/json" };
    var key = getKey();
    if (key) headers.Authorization = "Bearer " + key;
    return fetch(url.toString(), { headers: headers, signal: signal, credentials: "omit" }).then(
      function (response) {
        if (counted) noteRateLimit(response.headers);
        var type = response.headers.get("content-type") || "";
        var body = type.indexOf("json") >= 0 ? response.json().catch(function () { return null; }) : Promise.resolve(null);
        return body.then(function (envelope) {
          if (response.ok && envelope && envelope.ok === true) return envelope;
          var message =
            envelope && typeof envelope.error === "string" && envelope.error
              ? envelope.error
              : "The API answered HTTP " + response.status + " " + (response.statusText || "") + " without an explanation.";
          throw new ApiError(response.status, message.trim(), response.headers.get("Retry-After"));
        });
      },
      function (err) {
        if (err && err.name === "AbortError") throw err;
        throw new ApiError(0, "Could not reach the API.", null);
      }
    );
  }

  function isAbort(err) {
    return err && err.name === "AbortError";
  }

  // ---------------------------------------------------------------- errors

  function showError(err) {
    var title = err && err.message ? err.message : "Something went wrong.";
    var hint = "";
    var status = err ? err.status : 0;
    if (status === 401) {
      hint = getKey()
        ? "Paste a valid API key in the API key field above (keys start with dk_)."
        : "Paste your API key in the API key field above to use the API.";
    } else if (status === 403) {
      hint = "This key has been disabled. Paste another API key in the field above.";
    } else if (status === 429) {
      hint = "This key's monthly quota is used up.";
      if (err.retryAfter) hint += " Try again in " + duration(err.retryAfter) + ", when the quota resets.";
    } else if (status === 503) {
      hint = "The service is briefly unavailable.";
      if (err.retryAfter) hint += " Try again in " + duration(err.retryAfter) + ".";
    } else if (status === 400) {
      hint = "Check the search box and filters.";
    } else if (status === 0) {
      hint = "Check your connection, then try again.";
    } else if (status >= 500) {
      hint = "The service failed to answer; try again in a moment.";
    }
    el.errorTitle.textContent = title;
    el.errorHint.textContent = hint;
    el.errorHint.hidden = !hint;
    el.error.hidden = false;
    var keyProblem = status === 401 || status === 403;
    if (keyProblem) el.key.setAttribute("aria-invalid", "true");
    else el.key.removeAttribute("aria-invalid");
  }

  function clearError() {
    el.error.hidden = true;
    el.errorTitle.textContent = "";
    el.errorHint.textContent = "";
    el.key.removeAttribute("aria-invalid");
  }

  // ---------------------------------------------------------------- usage

  var usage = null;
  var usageSeq = 0;

  function renderUsage() {
    if (!usage) {
      el.usageList.hidden = true;
      el.usageMeter.hidden = true;
      el.usageEmpty.hidden = false;
      el.usageEmpty.textContent = getKey() ? "Usage unavailable." : "No key yet.";
      return;
    }
    el.usageEmpty.hidden = true;
    el.usageList.hidden = false;
    el.usageMeter.hidden = false;
    el.usagePlan.textContent = usage.plan;
    el.usageUsed.textContent = numberFormat.format(usage.usage) + " / " + numberFormat.format(usage.limit);
    el.usageRemaining.textContent = numberFormat.format(usage.remaining);
    el.usageReset.textContent = formatDate(usage.resetDate);
    el.usageReset.title = usage.resetDate;
    var share = usage.limit > 0 ? Math.min(1, usage.usage / usage.limit) : 1;
    // A width set through the CSSOM is allowed by the page's CSP (style attributes in markup are not).
    el.usageBar.style.width = (share * 100).toFixed(2) + "%";
    if (usage.usage > 0 && share < 0.005) el.usageBar.style.width = "2px";
  }

  function refreshUsage() {
    var seq = ++usageSeq;
    if (!getKey()) {
      usage = null;
      renderUsage();
      return Promise.resolve();
    }
    return api("/api/me/usage").then(
      function (envelope) {
        if (seq !== usageSeq) return;
        usage = envelope.data;
        renderUsage();
      },
      function (err) {
        if (seq !== usageSeq) return;
        usage = null;
        renderUsage();
        if (err.status === 401 || err.status === 403) showError(err);
      }
    );
  }

  var refreshUsageSoon = debounce(refreshUsage, USAGE_DELAY_MS);

  // Every authenticated answer says what remains: show it at once, then ask
  // for the full picture (me/usage itself is not counted).
  function noteRateLimit(headers) {
    var remaining = headers.get("RateLimit-Remaining");
    if (remaining === null) return;
    if (usage && /^\d+$/.test(remaining.trim())) {
      usage.remaining = Number(remaining);
      usage.usage = Math.max(0, usage.limit - usage.remaining);
      renderUsage();
    }
    refreshUsageSoon();
  }

  // ---------------------------------------------------------------- state and URL

  function readForm() {
    state.mode = el.modeReverse.checked ? "reverse" : "search";
    state.q = el.q.value.trim();
    state.matchType = el.matchType.value;
    state.lang = el.lang.value;
    state.source = el.source.value;
    state.pos = el.pos.value.trim();
    state.hasAudio = el.hasAudio.checked;
    state.fuzzy = el.fuzzy.checked;
    state.group = el.group.checked;
    state.limit = Number(el.limit.value) || 20;
  }

  function ensureOption(select, value, label) {
    if (!value) return;
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === value) return;
    }
    select.appendChild(new Option(label || value, value));
  }

  // What the box under the search field says: for a pattern, what `?` and `*`
  // mean; for a reverse lookup, what it finds. Reverse lookup has no match
  // type and no fuzzy matching: those controls leave the form (their values
  // stay for when search comes back).
  var searchHelpText = el.searchHelp.textContent;
  var searchPlaceholder = el.q.getAttribute("placeholder");
  var searchLabel = el.qLabel.textContent;

  function reverseMode() {
    return state.mode === "reverse";
  }

  function renderSearchHelp() {
    var reverse = reverseMode();
    var pattern = !reverse && state.matchType === "pattern";
    var soundsLike = !reverse && state.matchType === "soundsLike";
    el.matchTypeField.hidden = reverse;
    el.matchType.disabled = reverse;
    el.fuzzyCheck.hidden = reverse;
    el.fuzzy.disabled = reverse;
    el.qLabel.textContent = reverse ? "Meaning" : searchLabel;
    if (reverse) {
      el.searchHelp.textContent =
        "Finds the words whose definition or translation contains these words: house in French → English lists maison.";
      el.q.setAttribute("placeholder", "A meaning, e.g. house, a young dog…");
    } else if (pattern) {
      el.searchHelp.textContent =
        "Pattern: ? stands for one letter, * for any letters (or none): h?use, *ology, c*t, s??ing. Give at least 2 letters.";
      el.q.setAttribute("placeholder", "A pattern, e.g. h?use, *ology, c*t…");
    } else if (soundsLike) {
      el.searchHelp.textContent =
        "Sounds like: write the word as you hear it, fizicks finds physics, farmasi French pharmacie (English, French, Spanish and German).";
      el.q.setAttribute("placeholder", "A word as it sounds, e.g. fizicks, nolij…");
    } else {
      el.searchHelp.textContent = searchHelpText;
      el.q.setAttribute("placeholder", searchPlaceholder);
    }
  }

  // The letters of a pattern (what is not `?` or `*`): the API wants 2 at least.
  function patternLetters(q) {
    return Array.from(q.replace(/\s+/g, " ").replace(/[?*]/g, "")).length;
  }

  function writeForm() {
    el.modeSearch.checked = !reverseMode();
    el.modeReverse.checked = reverseMode();
    el.q.value = state.q;
    el.matchType.value = state.matchType;
    renderSearchHelp();
    ensureOption(el.lang, state.lang);
    el.lang.value = state.lang;
    ensureOption(el.source, state.source);
    el.source.value = state.source;
    el.pos.value = state.pos;
    el.hasAudio.checked = state.hasAudio;
    el.fuzzy.checked = state.fuzzy;
    el.group.checked = state.group;
    ensureOption(el.limit, String(state.limit));
    el.limit.value = String(state.limit);
  }

  // The fragment that describes `s` (the state, or a state a link leads to):
  // defaults are left out; in reverse mode, so are match type and fuzzy.
  function hashOf(s) {
    var params = new URLSearchParams();
    var reverse = s.mode === "reverse";
    if (reverse) params.set("mode", "reverse");
    if (s.q) params.set("q", s.q);
    if (!reverse && s.matchType !== "prefix") params.set("matchType", s.matchType);
    if (s.lang) params.set("lang", s.lang);
    if (s.source) params.set("source", s.source);
    if (s.pos) params.set("pos", s.pos);
    if (s.hasAudio) params.set("hasAudio", "true");
    if (!reverse && !s.fuzzy) params.set("fuzzy", "false");
    if (s.group) params.set("group", "word");
    if (s.limit !== 20) params.set("limit", String(s.limit));
    if (s.offset) params.set("offset", String(s.offset));
    if (s.entry) params.set("entry", s.entry);
    return params.toString();
  }

  function writeHash() {
    var hash = hashOf(state);
    var url = window.location.pathname + window.location.search + (hash ? "#" + hash : "");
    if (url !== window.location.pathname + window.location.search + window.location.hash) {
      window.history.replaceState(null, "", url);
    }
  }

  function readHash() {
    var params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    state.mode = params.get("mode") === "reverse" ? "reverse" : "search";
    state.q = (params.get("q") || "").trim();
    var match = params.get("matchType");
    // The select's options are the match types (held to the API's list by a test).
    var known = Array.prototype.some.call(el.matchType.options, function (o) {
      return o.value === match;
    });
    state.matchType = known ? match : "prefix";
    state.lang = params.get("lang") || "";
    state.source = params.get("source") || "";
    state.pos = params.get("pos") || "";
    state.hasAudio = params.get("hasAudio") === "true";
    state.fuzzy = params.get("fuzzy") !== "false";
    state.group = params.get("group") === "word";
    var limit = parseInt(params.get("limit") || "20", 10);
    state.limit = limit >= 1 && limit <= 100 ? limit : 20;
    var offset = parseInt(params.get("offset") || "0", 10);
    state.offset = offset > 0 && offset <= 10000 ? offset : 0;
    state.entry = params.get("entry") || "";
  }

  // ---------------------------------------------------------------- dictionaries

  var dictionariesLoaded = false;
  var dictionariesLoading = null;

  // The filters' choices. A failed load (the service restarting, say) is
  // tried again after the next search that succeeds.
  function loadDictionaries() {
    if (dictionariesLoaded || !getKey()) return Promise.resolve();
    if (dictionariesLoading) return dictionariesLoading;
    dictionariesLoading = api("/api/dictionaries").then(
      function (envelope) {
        dictionariesLoading = null;
        dictionariesLoaded = true;
        fillFilters(envelope.data || []);
      },
      function (err) {
        dictionariesLoading = null;
        if (err.status !== 401 && err.status !== 403) showError(err);
      }
    );
    return dictionariesLoading;
  }

  function fillFilters(dictionaries) {
    var chosenSource = el.source.value;
    var chosenLang = el.lang.value;
    clear(el.source);
    el.source.appendChild(new Option("all dictionaries", ""));
    dictionaries
      .slice()
      .sort(function (a, b) {
        return String(a.dictionaryName).localeCompare(String(b.dictionaryName));
      })
      .forEach(function (d) {
        var option = new Option(d.dictionaryName, d.dictionaryId);
        if (typeof d.entryCount === "number") option.title = plural(d.entryCount, "entry", "entries") + " · " + d.dictionaryId;
        el.source.appendChild(option);
      });
    ensureOption(el.source, chosenSource);
    el.source.value = chosenSource;

    var langs = {};
    dictionaries.forEach(function (d) {
      if (!d.sourceLang) return;
      langs[d.sourceLang] = languagePair(d.sourceLang, null);
      if (d.targetLang) langs[d.sourceLang + "-" + d.targetLang] = languagePair(d.sourceLang, d.targetLang);
    });
    clear(el.lang);
    el.lang.appendChild(new Option("any", ""));
    Object.keys(langs)
      .sort()
      .forEach(function (code) {
        el.lang.appendChild(new Option(langs[code], code));
      });
    ensureOption(el.lang, chosenLang);
    el.lang.value = chosenLang;
  }

  // ---------------------------------------------------------------- search

  var searchSeq = 0;
  var searchAbort = null;
  var lastResults = null;

  function setStatus(text) {
    clear(el.status);
    el.status.textContent = text;
  }

  // The request the state describes: search, or reverse lookup (the same
  // filters and paging, without matchType and fuzzy).
  function searchRequest() {
    var params = {
      q: state.q,
      lang: state.lang,
      source: state.source,
      pos: state.pos,
      hasAudio: state.hasAudio ? "true" : "",
      group: state.group ? "word" : "",
      limit: state.limit,
      offset: state.offset
    };
    if (reverseMode()) return { path: "/api/reverse", params: params };
    params.matchType = state.matchType;
    params.fuzzy = state.fuzzy ? "" : "false";
    return { path: "/api/search", params: params };
  }

  // Runs the search the state describes. Only the newest one may paint: an
  // older answer that arrives late is dropped (and its request aborted).
  function runSearch() {
    var seq = ++searchSeq;
    scheduleSearch.cancel();
    if (searchAbort) searchAbort.abort();
    searchAbort = null;
    writeHash();
    if (!state.q) {
      renderResults(null);
      setStatus(getKey() ? "Type a word to search." : "Paste an API key, then type a word.");
      el.results.removeAttribute("aria-busy");
      return Promise.resolve();
    }
    if (!getKey()) {
      renderResults(null);
      setStatus("Paste an API key above to search.");
      return Promise.resolve();
    }
    if (!reverseMode() && state.matchType === "pattern" && patternLetters(state.q) < 2) {
      // Not sent while it is being typed: the API answers 400 below 2 letters.
      renderResults(null);
      clearError();
      setStatus("A pattern needs at least 2 letters besides ? and *.");
      el.results.removeAttribute("aria-busy");
      return Promise.resolve();
    }
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    searchAbort = controller;
    el.results.setAttribute("aria-busy", "true");
    var request = searchRequest();
    return api(request.path, request.params, controller ? controller.signal : undefined).then(
      function (envelope) {
        if (seq !== searchSeq) return;
        el.results.removeAttribute("aria-busy");
        clearError();
        renderResults(envelope);
        loadDictionaries();
      },
      function (err) {
        if (isAbort(err) || seq !== searchSeq) return;
        el.results.removeAttribute("aria-busy");
        renderResults(null);
        setStatus("No results: the search failed.");
        showError(err);
      }
    );
  }

  var scheduleSearch = debounce(runSearch, SEARCH_DELAY_MS);

  function renderResults(envelope) {
    lastResults = envelope;
    clear(el.results);
    if (!envelope) {
      el.pager.hidden = true;
      return;
    }
    var items = envelope.data || [];
    var meta = envelope.meta || {};
    var total = typeof meta.total === "number" ? meta.total : items.length;
    var offset = typeof meta.offset === "number" ? meta.offset : state.offset;
    var limit = typeof meta.limit === "number" ? meta.limit : state.limit;

    clear(el.status);
    var count = make("strong", null, numberFormat.format(total));
    count.id = "result-total";
    count.setAttribute("data-total", String(total));
    el.status.appendChild(count);
    var grouped = typeof meta.totalEntries === "number";
    var found = reverseMode() || grouped
      ? (total === 1 ? "word" : "words") + (reverseMode() ? " meaning" : " for")
      : (total === 1 ? "result" : "results") + " for";
    el.status.appendChild(document.createTextNode(" " + found + " “"));
    el.status.appendChild(make("span", "status__query", state.q));
    el.status.appendChild(document.createTextNode("”"));

    items.forEach(function (item) {
      el.results.appendChild(grouped ? wordItem(item) : resultItem(item));
    });

    if (total > 0 && items.length > 0) {
      el.pager.hidden = false;
      var first = offset + 1;
      var last = offset + items.length;
      el.range.textContent =
        (grouped ? "Words " : "Results ") + numberFormat.format(first) + "–" + numberFormat.format(last) + " of " + numberFormat.format(total);
      el.prev.disabled = offset <= 0;
      el.next.disabled = offset + limit >= total || offset + limit > 10000;
    } else if (total > 0) {
      // Paged past the end (e.g. a filter shrank the results): offer the way back.
      el.pager.hidden = false;
      el.range.textContent = "No results on this page (" + plural(total, "result", "results") + " in all)";
      el.prev.disabled = offset <= 0;
      el.next.disabled = true;
    } else {
      el.pager.hidden = true;
    }
    markCurrentResult();
  }

  function resultItem(item) {
    var li = make("li");
    var button = make("button", "result");
    button.type = "button";
    button.setAttribute("data-source", item.dictionaryId);
    button.setAttribute("data-id", item.id);
    var top = make("span", "result__top");
    top.appendChild(make("span", "result__word", item.word));
    if (item.partOfSpeech) top.appendChild(make("span", "badge", item.partOfSpeech));
    top.appendChild(make("span", "badge", shortPair(item.sourceLang, item.targetLang)));
    if (item.hasAudio) top.appendChild(make("span", "badge badge--audio", "♪ audio"));
    button.appendChild(top);
    button.appendChild(make("span", "result__dict", item.dictionaryName));
    if (item.preview) button.appendChild(make("span", "result__preview", item.preview));
    button.addEventListener("click", function () {
      openEntry(item.dictionaryId, item.id, true);
    });
    li.appendChild(button);
    return li;
  }

  // A word of a grouped search: its headword, language and how many
  // entries hold it, then those entries (each opens as a result does).
  function wordItem(word) {
    var li = make("li", "word");
    var top = make("div", "word__top");
    top.appendChild(make("span", "word__word", word.word));
    top.appendChild(make("span", "badge", languageName(word.lang)));
    top.appendChild(make("span", "word__count", plural(word.entryCount, "entry", "entries")));
    li.appendChild(top);
    var list = make("ul", "word__entries");
    word.entries.forEach(function (item) {
      list.appendChild(resultItem(item));
    });
    li.appendChild(list);
    if (word.entryCount > word.entries.length) {
      li.appendChild(make("p", "word__more", "and " + numberFormat.format(word.entryCount - word.entries.length) + " more: narrow by dictionary to see them"));
    }
    return li;
  }

  function markCurrentResult() {
    var buttons = el.results.querySelectorAll(".result");
    for (var i = 0; i < buttons.length; i++) {
      var b = buttons[i];
      var current = state.entry === b.getAttribute("data-source") + "/" + b.getAttribute("data-id");
      if (current) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    }
  }

  // A headword to search (a synonym, a thesaurus link): always a search,
  // whatever the mode, with the filters as they are.
  function searchFor(word) {
    el.q.value = word;
    el.modeSearch.checked = true;
    readForm();
    renderSearchHelp();
    state.offset = 0;
    runSearch();
    el.q.focus();
    window.scrollTo(0, 0);
  }

  // ---------------------------------------------------------------- autocomplete

  var suggestSeq = 0;

  function suggest() {
    var seq = ++suggestSeq;
    var q = state.q;
    // Suggestions are headwords that start with q: no help to a reverse lookup.
    if (!q || !getKey() || reverseMode() || state.matchType !== "prefix") {
      clear(el.suggestions);
      return;
    }
    api("/api/autocomplete", { q: q, lang: state.lang, source: state.source, limit: 8 }).then(
      function (envelope) {
        if (seq !== suggestSeq) return;
        clear(el.suggestions);
        (envelope.data || []).forEach(function (word) {
          var option = document.createElement("option");
          option.value = String(word);
          el.suggestions.appendChild(option);
        });
      },
      function () {
        // Suggestions are a convenience: the search itself reports errors.
      }
    );
  }

  var suggestSoon = debounce(suggest, SUGGEST_DELAY_MS);

  // ---------------------------------------------------------------- entry

  var entrySeq = 0;

  function openEntry(source, id, focus) {
    var seq = ++entrySeq;
    state.entry = source + "/" + id;
    writeHash();
    markCurrentResult();
    el.entryStatus.hidden = false;
    el.entryStatus.textContent = "Loading the entry…";
    return api("/entry/" + encodeURIComponent(source) + "/" + encodeURIComponent(id)).then(
      function (envelope) {
        if (seq !== entrySeq) return;
        el.entryStatus.textContent = "";
        el.entryStatus.hidden = true;
        el.entry.setAttribute("aria-labelledby", "entry-word");
        el.entry.removeAttribute("aria-label");
        renderEntry(envelope.data);
        if (focus) el.entryWord.focus({ preventScroll: window.matchMedia("(min-width: 861px)").matches });
        loadThesaurus(envelope.data, seq);
        loadRhymes(envelope.data, "perfect", seq);
      },
      function (err) {
        if (seq !== entrySeq) return;
        el.entryBody.hidden = true;
        el.entryStatus.hidden = false;
        el.entryStatus.textContent = "The entry could not be loaded: " + err.message;
        showError(err);
      }
    );
  }

  function renderEntry(entry) {
    el.entryBody.hidden = false;
    el.entryWord.textContent = entry.word;
    el.entryWord.setAttribute("lang", entry.sourceLang || "");
    el.entryPhonetic.textContent = entry.phonetic ? "/" + entry.phonetic + "/" : "";
    el.entryDictionary.textContent = entry.dictionaryName;
    el.entryDictionaryId.textContent = entry.dictionaryId;
    el.entryLangs.textContent = languagePair(entry.sourceLang, entry.targetLang);
    el.entryPosRow.hidden = !entry.partOfSpeech;
    el.entryPos.textContent = entry.partOfSpeech || "";
    renderAudio(entry);
    // The one string inserted as HTML: the API builds it from an allow-list of
    // tags (no scripts, styles, handlers or other URL schemes) and calls it safe.
    el.entryHtml.innerHTML = entry.htmlContent || "";
    el.entryHtml.setAttribute("lang", entry.sourceLang || "");
    var links = el.entryHtml.querySelectorAll("a[href]");
    for (var i = 0; i < links.length; i++) links[i].setAttribute("rel", "noopener noreferrer");
    renderLists(entry);
  }

  var AUDIO_TYPES = {
    mp3: "audio/mpeg",
    spx: "audio/ogg; codecs=speex",
    ogg: "audio/ogg",
    oga: "audio/ogg",
    opus: "audio/ogg; codecs=opus",
    wav: "audio/wav",
    m4a: "audio/mp4",
    aac: "audio/aac",
    flac: "audio/flac",
    webm: "audio/webm"
  };

  function formatOfUrl(url) {
    try {
      var path = new URL(url, window.location.href).pathname;
      var match = /\.([a-z0-9]+)$/i.exec(path);
      return match ? match[1].toLowerCase() : "";
    } catch (e) {
      return "";
    }
  }

  // The renditions to offer, in the order a browser should try them: MP3 first
  // (every browser plays it), then the others, primary first.
  function audioRenditions(entry) {
    var list = [];
    var urls = entry.audioUrls;
    if (urls && typeof urls === "object") {
      var order = Array.isArray(entry.audioFormats) ? entry.audioFormats.slice() : [];
      Object.keys(urls).forEach(function (format) {
        if (order.indexOf(format) < 0) order.push(format);
      });
      order.sort(function (a, b) {
        return (a === "mp3" ? 0 : 1) - (b === "mp3" ? 0 : 1);
      });
      order.forEach(function (format) {
        if (typeof urls[format] === "string" && urls[format]) list.push({ format: format, url: urls[format] });
      });
    }
    if (!list.length && entry.audioUrl) list.push({ format: formatOfUrl(entry.audioUrl), url: entry.audioUrl });
    return list;
  }

  function renderAudio(entry) {
    clear(el.entryAudio);
    var renditions = entry.hasAudio ? audioRenditions(entry) : [];
    if (!renditions.length) {
      el.entryAudio.hidden = true;
      return;
    }
    el.entryAudio.hidden = false;
    var label = make("span", "entry-audio__label", "Pronunciation");
    label.id = "entry-audio-label";
    var audio = document.createElement("audio");
    audio.id = "entry-audio-player";
    audio.controls = true;
    audio.preload = "auto";
    audio.setAttribute("aria-labelledby", "entry-audio-label");
    var spoken = make("p", "entry-audio__source", audioSourceText(entry.audioSource));
    spoken.id = "entry-audio-source";
    var note = make("p", "entry-audio__note");
    note.id = "entry-audio-note";
    note.textContent = "Formats: " + renditions.map(function (r) { return r.format || "audio"; }).join(", ") + ".";
    renditions.forEach(function (r, i) {
      var source = document.createElement("source");
      source.src = r.url;
      if (AUDIO_TYPES[r.format]) source.type = AUDIO_TYPES[r.format];
      if (i === renditions.length - 1) {
        // The last source failing means no rendition plays here.
        source.addEventListener("error", function () {
          note.textContent =
            "This browser cannot play this pronunciation (" +
            renditions.map(function (x) { return x.format; }).join(", ") +
            ").";
          note.setAttribute("role", "status");
        });
      }
      audio.appendChild(source);
    });
    audio.appendChild(document.createTextNode("Your browser does not play audio."));
    el.entryAudio.appendChild(label);
    el.entryAudio.appendChild(audio);
    el.entryAudio.appendChild(spoken);
    el.entryAudio.appendChild(note);
  }

  // Who speaks: "Synthesized voice (espeak-ng, fr)" or "Recorded
  // (ktuberling)", so that nobody takes a synthesizer's guess for a speaker's.
  function audioSourceText(source) {
    if (!source) return "";
    if (source.kind === "recorded") {
      return "Recorded" + (source.collection ? " (" + source.collection + ")" : "");
    }
    var by = [source.synthesizer, source.voice].filter(Boolean).join(", ");
    return "Synthesized voice" + (by ? " (" + by + ")" : "");
  }

  function renderLists(entry) {
    clear(el.entryLists);
    addTranslations(entry);
    addWordList("Synonyms", entry.synonyms, entry.sourceLang, true);
    addWordList("Antonyms", entry.antonyms, entry.sourceLang, true);
    if (Array.isArray(entry.examples) && entry.examples.length) {
      var box = make("section", "entry-list entry-list--examples");
      box.appendChild(make("h3", "section-title", "Examples"));
      var ul = make("ul", "plain-list");
      entry.examples.forEach(function (example) {
        ul.appendChild(make("li", null, example));
      });
      box.appendChild(ul);
      el.entryLists.appendChild(box);
    }
  }

  function wordChip(word, lang, title) {
    var button = make("button", "chip", word);
    button.type = "button";
    if (lang) button.setAttribute("lang", lang);
    button.title = title || "Search “" + word + "”";
    button.addEventListener("click", function () {
      searchFor(word);
    });
    return button;
  }

  // The state a translation chip leads to: the reverse lookup of the
  // translation in the dictionary's own pair (an entry of a fr-en dictionary
  // translated "house": the French words whose translation is "house"). The
  // other filters are dropped (a dictionary or part of speech chosen before
  // would hide what the pair has); the page size and the open entry stay.
  function reverseState(word, pair) {
    return {
      mode: "reverse",
      q: word,
      matchType: state.matchType,
      lang: pair,
      source: "",
      pos: "",
      hasAudio: false,
      fuzzy: state.fuzzy,
      limit: state.limit,
      offset: 0,
      entry: state.entry
    };
  }

  function reverseFor(word, pair) {
    var next = reverseState(word, pair);
    Object.keys(next).forEach(function (name) {
      state[name] = next[name];
    });
    writeForm();
    clear(el.suggestions);
    runSearch();
    el.q.focus();
    window.scrollTo(0, 0);
  }

  // A translation is a link to its reverse lookup (a real link: it opens in
  // a new tab too); a plain click runs it here. Without a language pair (a
  // monolingual dictionary) there is no other direction: plain chips.
  function translationChip(word, entry, pair) {
    var link = make("a", "chip", word);
    link.href = "#" + hashOf(reverseState(word, pair));
    link.setAttribute("lang", entry.targetLang);
    link.setAttribute("data-reverse-lang", pair);
    link.title =
      "Find the " + languageName(entry.sourceLang) + " words meaning “" + word + "” (reverse lookup, " + pair + ")";
    link.addEventListener("click", function (event) {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      reverseFor(word, pair);
    });
    return link;
  }

  function addTranslations(entry) {
    var words = entry.translations;
    if (!entry.targetLang || !entry.sourceLang) {
      addWordList("Translations", words, entry.targetLang, false);
      return;
    }
    if (!Array.isArray(words) || !words.length) return;
    var pair = entry.sourceLang + "-" + entry.targetLang;
    var box = make("section", "entry-list entry-list--translations");
    box.appendChild(make("h3", "section-title", "Translations"));
    var ul = make("ul", "chips");
    words.forEach(function (word) {
      var li = make("li");
      li.appendChild(translationChip(word, entry, pair));
      ul.appendChild(li);
    });
    box.appendChild(ul);
    box.appendChild(
      make("p", "help", "Pick one to find the " + languageName(entry.sourceLang) + " words with that translation.")
    );
    el.entryLists.appendChild(box);
  }

  function addWordList(title, words, lang, searchable) {
    if (!Array.isArray(words) || !words.length) return;
    var box = make("section", "entry-list entry-list--" + title.toLowerCase());
    box.appendChild(make("h3", "section-title", title));
    var ul = make("ul", "chips");
    words.forEach(function (word) {
      var li = make("li");
      li.appendChild(searchable ? wordChip(word, lang) : make("span", "chip", word));
      ul.appendChild(li);
    });
    box.appendChild(ul);
    el.entryLists.appendChild(box);
  }

  // ---------------------------------------------------------------- thesaurus

  var RELATION_TITLES = {
    synonym: "Synonyms",
    antonym: "Antonyms",
    derivation: "Derived forms",
    similar: "Similar",
    hypernym: "Broader terms (hypernyms)",
    hyponym: "Narrower terms (hyponyms)",
    related: "Related"
  };

  function loadThesaurus(entry, seq) {
    clear(el.thesaurusGroups);
    el.thesaurusStatus.textContent = "Looking up related words…";
    api("/api/thesaurus/" + encodeURIComponent(entry.word), { lang: entry.sourceLang }).then(
      function (envelope) {
        if (seq !== entrySeq) return;
        renderThesaurus(envelope.data || []);
      },
      function (err) {
        if (seq !== entrySeq) return;
        el.thesaurusStatus.textContent = "The thesaurus could not be loaded: " + err.message;
      }
    );
  }

  function renderThesaurus(links) {
    clear(el.thesaurusGroups);
    if (!links.length) {
      el.thesaurusStatus.textContent = "No related words in the thesauri.";
      return;
    }
    el.thesaurusStatus.textContent = plural(links.length, "related word", "related words") + ". Pick one to search it.";
    // Grouped by relationship type, in the API's order; one chip per word.
    var groups = [];
    var byType = {};
    links.forEach(function (link) {
      var type = link.relationshipType || "related";
      if (!byType[type]) {
        byType[type] = { type: type, words: [], seen: {}, sources: {} };
        groups.push(byType[type]);
      }
      var group = byType[type];
      if (!group.seen[link.word]) {
        group.seen[link.word] = true;
        group.words.push(link.word);
        group.sources[link.word] = [];
      }
      if (link.dictionaryName && group.sources[link.word].indexOf(link.dictionaryName) < 0) {
        group.sources[link.word].push(link.dictionaryName);
      }
    });
    groups.forEach(function (group) {
      var box = make("section", "thesaurus-group");
      box.setAttribute("data-relationship", group.type);
      box.appendChild(make("h4", null, RELATION_TITLES[group.type] || group.type));
      var ul = make("ul", "chips");
      group.words.forEach(function (word) {
        var li = make("li");
        var from = group.sources[word].join(", ");
        li.appendChild(wordChip(word, null, "Search “" + word + "”" + (from ? " (from " + from + ")" : "")));
        ul.appendChild(li);
      });
      box.appendChild(ul);
      el.thesaurusGroups.appendChild(box);
    });
  }

  // ---------------------------------------------------------------- rhymes

  var RHYME_TITLES = { perfect: "Perfect rhymes", near: "Near rhymes (the same vowels)" };

  // Where a pronunciation comes from, as a reader says it.
  function pronunciationSource(source) {
    return source === "espeak-ng" ? "synthesized by espeak-ng" : "from the dictionary";
  }

  // The entry's word's rhymes of one kind (perfect when the entry opens;
  // near ones when asked, each a request of its own) in its language.
  function loadRhymes(entry, kind, seq) {
    if (kind === "perfect") {
      clear(el.rhymesGroups);
      el.rhymesStatus.textContent = "Looking up rhymes…";
    }
    api("/api/rhymes/" + encodeURIComponent(entry.word), { lang: entry.sourceLang, kind: kind, limit: 40 }).then(
      function (envelope) {
        if (seq !== entrySeq) return;
        renderRhymes(entry, kind, envelope, seq);
      },
      function (err) {
        if (seq !== entrySeq) return;
        el.rhymesStatus.textContent =
          err.status === 404
            ? "No pronunciation of this word to rhyme with."
            : "The rhymes could not be loaded: " + err.message;
      }
    );
  }

  function renderRhymes(entry, kind, envelope, seq) {
    var rhymes = envelope.data || [];
    var meta = envelope.meta || {};
    if (kind === "perfect") {
      var heard = (meta.pronunciations || []).map(function (p) {
        return p.pronunciation + " (" + pronunciationSource(p.source) + ")";
      });
      el.rhymesStatus.textContent =
        (heard.length ? "Pronounced " + heard.join(", ") + ". " : "") +
        plural(meta.total || 0, "word rhymes", "words rhyme") +
        (rhymes.length ? ". Pick one to search it." : ".");
    }
    var box = make("section", "rhyme-group");
    box.setAttribute("data-rhyme-kind", kind);
    box.appendChild(make("h4", null, RHYME_TITLES[kind]));
    var ul = make("ul", "chips");
    rhymes.forEach(function (rhyme) {
      var li = make("li");
      var syllables = plural(rhyme.syllables, "syllable", "syllables");
      li.appendChild(
        wordChip(
          rhyme.word,
          rhyme.lang,
          "Search “" + rhyme.word + "”: " + rhyme.pronunciation + ", " + syllables + ", " +
            pronunciationSource(rhyme.pronunciationSource)
        )
      );
      ul.appendChild(li);
    });
    box.appendChild(ul);
    if (kind === "perfect") {
      var more = make("button", "chip rhymes-near", "Near rhymes");
      more.type = "button";
      more.title = "The words with the same vowels (one more request)";
      more.addEventListener("click", function () {
        more.disabled = true;
        loadRhymes(entry, "near", seq);
      });
      box.appendChild(more);
    }
    el.rhymesGroups.appendChild(box);
  }

  // ---------------------------------------------------------------- random

  function openRandom() {
    readForm();
    api("/random", { lang: state.lang, source: state.source, hasAudio: state.hasAudio ? "true" : "" }).then(
      function (envelope) {
        var pick = (envelope.data || [])[0];
        if (!pick) {
          setStatus("No entry matches these filters.");
          return;
        }
        clearError();
        openEntry(pick.dictionaryId, pick.id, true);
      },
      function (err) {
        showError(err);
      }
    );
  }

  // ---------------------------------------------------------------- wiring

  function onKeyChanged() {
    clearError();
    usage = null;
    renderUsage();
    dictionariesLoaded = false;
    refreshUsage();
    loadDictionaries();
    runSearch();
    if (state.entry) {
      var parts = state.entry.split("/");
      if (parts.length === 2) openEntry(parts[0], parts[1], false);
    }
  }

  var keyChangedSoon = debounce(onKeyChanged, KEY_DELAY_MS);

  el.key.addEventListener("input", function () {
    storeKey(el.key.value.trim());
    keyChangedSoon();
  });

  el.keyToggle.addEventListener("click", function () {
    var show = el.key.type === "password";
    el.key.type = show ? "text" : "password";
    el.keyToggle.textContent = show ? "Hide" : "Show";
    el.keyToggle.setAttribute("aria-pressed", show ? "true" : "false");
  });

  el.keyForget.addEventListener("click", function () {
    el.key.value = "";
    storeKey("");
    keyChangedSoon.cancel();
    onKeyChanged();
    el.key.focus();
  });

  el.form.addEventListener("submit", function (event) {
    event.preventDefault();
    readForm();
    state.offset = 0;
    runSearch();
  });

  el.q.addEventListener("input", function () {
    readForm();
    state.offset = 0;
    scheduleSearch();
    suggestSoon();
  });

  el.q.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && el.q.value) {
      // type=search clears itself on Escape; follow with an empty search.
      setTimeout(function () {
        readForm();
        state.offset = 0;
        runSearch();
      }, 0);
    }
  });

  [el.modeSearch, el.modeReverse].forEach(function (radio) {
    radio.addEventListener("change", function () {
      readForm();
      renderSearchHelp();
      clear(el.suggestions);
      state.offset = 0;
      runSearch();
    });
  });

  [el.matchType, el.lang, el.source, el.limit, el.hasAudio, el.fuzzy].forEach(function (control) {
    control.addEventListener("change", function () {
      readForm();
      renderSearchHelp();
      state.offset = 0;
      runSearch();
    });
  });

  el.pos.addEventListener("input", function () {
    readForm();
    state.offset = 0;
    scheduleSearch();
  });

  el.prev.addEventListener("click", function () {
    state.offset = Math.max(0, state.offset - state.limit);
    runSearch();
  });

  el.next.addEventListener("click", function () {
    state.offset = state.offset + state.limit;
    runSearch();
  });

  el.random.addEventListener("click", openRandom);

  // ---------------------------------------------------------------- start

  readHash();
  writeForm();
  var storedKey = getKey();
  if (storedKey) el.key.value = storedKey;
  renderUsage();
  if (storedKey) {
    refreshUsage();
    loadDictionaries();
  }
  runSearch();
  if (storedKey && state.entry) {
    var initial = state.entry.split("/");
    if (initial.length === 2) openEntry(initial[0], initial[1], false);
  }
})();
