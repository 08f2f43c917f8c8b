// Firebase web config: the API key identifies the project and is public by design.
const firebaseConfig = {
  apiKey: "AIza8Cz6SNDCdyZQJiJSZQdoHwHen3SO3oXyGf3",
  authDomain: "acme-app.firebaseapp.com",
  projectId: "acme-app",
};

// Algolia DocSearch: a search-only key, public by design.
const algolia = { indexName: 'docs', appId: 'ML0LEBN7FQ', apiKey: '10e7a8b13e6aec4007343338ab134e05' };
