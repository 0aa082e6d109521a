// Starts GraphiQL against this service's GraphQL endpoint. The API key is the
// one pasted into the playground (same origin, session storage only); GraphiQL
// is told not to persist headers, so the key never reaches local storage.
(function () {
  "use strict";
  var key = sessionStorage.getItem("dictionary-api-key") || "";
  var headers = JSON.stringify(
    { Authorization: "Bearer " + (key || "paste-your-api-key-here") },
    null,
    2
  );
  var defaultQuery = [
    "# Every root field counts one unit of your quota.",
    "{",
    '  search(q: "house", limit: 5) {',
    "    total",
    "    results { word dictionaryId partOfSpeech preview }",
    "  }",
    "}",
    ""
  ].join("\n");
  var root = ReactDOM.createRoot(document.getElementById("graphiql"));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: GraphiQL.createFetcher({ url: "/api/v1/api/graphql" }),
      defaultQuery: defaultQuery,
      defaultHeaders: headers,
      headers: headers,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: "headers"
    })
  );
})();
