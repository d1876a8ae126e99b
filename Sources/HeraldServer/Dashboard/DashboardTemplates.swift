/// The dashboard's Mustache templates, compiled into the binary (no files to ship beside it).
/// `{{x}}` escapes; `{{{x}}}` is used only for HTML the server built itself (charts, cards).
enum DashboardTemplates {
    static let all: [String: String] = [
        "layout": layout, "login": login, "error": error, "overview": overview, "settings": settings,
        "providers": providers, "provider": provider, "templates": templates, "template": template, "template-preview": templatePreview,
        "users": users, "user": user, "events": events, "event": event, "deliveries": deliveries,
        "feed": feed, "card-template": cardTemplate, "card-preview": cardPreview, "campaign-new": campaignNew, "campaign": campaign,
    ]

    static let layout = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{title}} · Herald</title>
    <link rel="stylesheet" href="/dashboard/assets/dashboard.css">
    <script src="/dashboard/assets/dashboard.js" defer></script>
    </head>
    <body>
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <a class="brand" href="/dashboard">Herald</a>
      {{#appName}}<span class="app" title="App {{appId}}">{{appName}}</span>
      <form class="signout" method="post" action="/dashboard/logout">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <button type="submit" class="link">Sign out</button>
      </form>{{/appName}}
    </header>
    {{#appName}}<nav class="main-nav" aria-label="Dashboard">
      <ul>{{#nav}}<li><a href="{{path}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/nav}}</ul>
    </nav>{{/appName}}
    <main id="main" tabindex="-1">
    <h1>{{title}}</h1>
    {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
    {{{content}}}
    </main>
    </body>
    </html>
    """#

    static let login = #"""
    <form class="card narrow" method="post" action="/dashboard/login">
      <input type="hidden" name="_csrf" value="{{csrf}}">
      <input type="hidden" name="next" value="{{next}}">
      <p>Sign in with one of your app's API keys (<code>herald apps create</code> printed the first).</p>
      {{#error}}<p class="form-error" role="alert" id="apiKey-error">{{error}}</p>{{/error}}
      <label for="apiKey">API key</label>
      <input id="apiKey" name="apiKey" type="password" autocomplete="current-password" required{{#error}} aria-invalid="true" aria-describedby="apiKey-error"{{/error}}>
      <button type="submit">Sign in</button>
    </form>
    """#

    static let error = #"""
    <div class="card">
      <p class="form-error" role="alert">{{message}}</p>
      <p><code>{{code}}</code></p>
      <p><a href="/dashboard">Back to the overview</a></p>
    </div>
    """#

    static let overview = #"""
    <p class="range">Showing <strong>{{#week}}the last 7 days{{/week}}{{^week}}the last 24 hours{{/week}}</strong> ·
      {{#week}}<a href="/dashboard">last 24 hours</a>{{/week}}{{^week}}<a href="/dashboard?range=7d">last 7 days</a>{{/week}}</p>
    <ul class="tiles">
      <li class="tile"><span class="tile-label">Pushes sent</span><span class="tile-value" id="tile-sent">{{sent}}</span></li>
      <li class="tile"><span class="tile-label">Failed</span><span class="tile-value" id="tile-failed">{{failed}}</span></li>
      <li class="tile"><span class="tile-label">Skipped</span><span class="tile-value" id="tile-skipped">{{skipped}}</span></li>
      <li class="tile"><span class="tile-label">Told in-app</span><span class="tile-value">{{inapp}}</span></li>
      <li class="tile"><span class="tile-label">Queue depth</span><span class="tile-value" id="tile-depth">{{depth}}</span>
        <span class="tile-note">deliveries waiting (all apps); {{waitingEvents}} events waiting</span></li>
    </ul>
    <section aria-labelledby="timeline-h">
      <h2 id="timeline-h">Over time</h2>
      <figure>{{{timeline}}}</figure>
    </section>
    <div class="columns">
    <section aria-labelledby="providers-h">
      <h2 id="providers-h">Per provider</h2>
      {{{providerChart}}}
      {{#hasProviders}}<div class="table-wrap"><table>
        <caption class="sr-only">Deliveries per provider</caption>
        <thead><tr><th scope="col">Provider</th><th scope="col">Sent</th><th scope="col">Failed</th><th scope="col">Waiting</th></tr></thead>
        <tbody>{{#byProvider}}<tr><th scope="row">{{provider}}</th><td>{{sent}}</td><td>{{failed}}</td><td>{{waiting}}</td></tr>{{/byProvider}}</tbody>
      </table></div>{{/hasProviders}}
    </section>
    <section aria-labelledby="reasons-h">
      <h2 id="reasons-h">Top reasons for failing or skipping</h2>
      {{#hasReasons}}<div class="table-wrap"><table>
        <thead><tr><th scope="col">Reason</th><th scope="col">Status</th><th scope="col">Count</th></tr></thead>
        <tbody>{{#reasons}}<tr><td>{{reason}}</td><td><span class="status s-{{status}}">{{status}}</span></td><td>{{count}}</td></tr>{{/reasons}}</tbody>
      </table></div>{{/hasReasons}}
      {{^hasReasons}}<p class="empty">No failures or skips in this period.</p>{{/hasReasons}}
    </section>
    </div>
    """#

    static let settings = #"""
    <form class="card" method="post" action="/dashboard/settings" novalidate>
      <input type="hidden" name="_csrf" value="{{csrf}}">
      {{#errors.form}}<p class="form-error" role="alert">{{errors.form}}</p>{{/errors.form}}
      <fieldset>
        <legend>Switches</legend>
        {{#switches}}
        <div class="check">
          <input type="checkbox" id="{{name}}" name="{{name}}"{{#checked}} checked{{/checked}} aria-describedby="{{name}}-help">
          <label for="{{name}}">{{label}}</label>
          <p class="help" id="{{name}}-help">{{help}}</p>
        </div>
        {{/switches}}
      </fieldset>
      <div class="field">
        <label for="multiDevicePolicy">Multi-device policy</label>
        <select id="multiDevicePolicy" name="multiDevicePolicy"{{#errors.multiDevicePolicy}} aria-invalid="true" aria-describedby="multiDevicePolicy-error"{{/errors.multiDevicePolicy}}>
          {{#policies}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/policies}}
        </select>
        {{#errors.multiDevicePolicy}}<p class="field-error" id="multiDevicePolicy-error">{{errors.multiDevicePolicy}}</p>{{/errors.multiDevicePolicy}}
      </div>
      <div class="field">
        <label for="payloadFormat">Payload format</label>
        <select id="payloadFormat" name="payloadFormat"{{#errors.payloadFormat}} aria-invalid="true" aria-describedby="payloadFormat-error"{{/errors.payloadFormat}}>
          {{#formats}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/formats}}
        </select>
        {{#errors.payloadFormat}}<p class="field-error" id="payloadFormat-error">{{errors.payloadFormat}}</p>{{/errors.payloadFormat}}
      </div>
      <div class="field">
        <label for="maxTokensPerUser">Token cap per user</label>
        <input id="maxTokensPerUser" name="maxTokensPerUser" inputmode="numeric" value="{{values.maxTokensPerUser}}" aria-describedby="maxTokensPerUser-help{{#errors.maxTokensPerUser}} maxTokensPerUser-error{{/errors.maxTokensPerUser}}"{{#errors.maxTokensPerUser}} aria-invalid="true"{{/errors.maxTokensPerUser}}>
        <p class="help" id="maxTokensPerUser-help">The oldest token goes when a user registers one more (Sendbird's limit is 20).</p>
        {{#errors.maxTokensPerUser}}<p class="field-error" id="maxTokensPerUser-error">{{errors.maxTokensPerUser}}</p>{{/errors.maxTokensPerUser}}
      </div>
      <div class="field">
        <label for="onlineGraceSeconds">Online grace (seconds)</label>
        <input id="onlineGraceSeconds" name="onlineGraceSeconds" inputmode="numeric" value="{{values.onlineGraceSeconds}}"{{#errors.onlineGraceSeconds}} aria-invalid="true" aria-describedby="onlineGraceSeconds-error"{{/errors.onlineGraceSeconds}}>
        {{#errors.onlineGraceSeconds}}<p class="field-error" id="onlineGraceSeconds-error">{{errors.onlineGraceSeconds}}</p>{{/errors.onlineGraceSeconds}}
      </div>
      <div class="field">
        <label for="customJSON">Custom JSON</label>
        <textarea id="customJSON" name="customJSON" rows="5" class="code" spellcheck="false" aria-describedby="customJSON-help{{#errors.customJSON}} customJSON-error{{/errors.customJSON}}"{{#errors.customJSON}} aria-invalid="true"{{/errors.customJSON}}>{{values.customJSON}}</textarea>
        <p class="help" id="customJSON-help">A JSON object added to every push (at most 2 KB). Leave empty for none.</p>
        {{#errors.customJSON}}<p class="field-error" id="customJSON-error">{{errors.customJSON}}</p>{{/errors.customJSON}}
      </div>
      <button type="submit">Save settings</button>
    </form>
    """#

    static let providers = #"""
    <section aria-labelledby="add-h" class="card">
      <h2 id="add-h">+ Add credentials</h2>
      <ul class="actions">{{#kinds}}<li><a class="button secondary" href="/dashboard/providers/new?kind={{kind}}">{{label}}</a></li>{{/kinds}}</ul>
    </section>
    {{#empty}}<p class="empty">No providers yet: add your FCM service account or APNs key to start sending pushes.</p>{{/empty}}
    {{#providers}}
    <article class="card provider" aria-labelledby="p-{{id}}">
      <h2 id="p-{{id}}"><a href="/dashboard/providers/{{id}}">{{id}}</a> <span class="muted">{{kind}}</span>
        {{^enabled}}<span class="status s-skipped">disabled</span>{{/enabled}}</h2>
      {{#broken}}<p class="form-error" role="alert">Set aside: {{broken}}</p>{{/broken}}
      {{#expiryWarning}}<p class="warning" role="alert">{{expiryWarning}}</p>{{/expiryWarning}}
      <dl class="facts">{{#facts}}<dt>{{label}}</dt><dd>{{value}}</dd>{{/facts}}{{#expires}}<dt>Certificate expires</dt><dd>{{expires}}</dd>{{/expires}}</dl>
    </article>
    {{/providers}}
    """#

    static let provider = #"""
    {{#broken}}<p class="form-error" role="alert">This provider was set aside: {{broken}}. Saving new credentials tries it again.</p>{{/broken}}
    <form class="card" method="post" action="{{action}}" enctype="multipart/form-data" novalidate>
      <input type="hidden" name="_csrf" value="{{csrf}}">
      <input type="hidden" name="kind" value="{{kind}}">
      <p class="muted">{{kindLabel}}{{^creating}} · secrets are never shown; leave a secret field empty to keep it.{{/creating}}</p>
      {{#errors.form}}<p class="form-error" role="alert">{{errors.form}}</p>{{/errors.form}}
      <div class="field">
        <label for="providerId">Provider ID</label>
        <input id="providerId" name="providerId" value="{{values.providerId}}"{{^creating}} readonly{{/creating}} aria-describedby="providerId-help{{#errors.providerId}} providerId-error{{/errors.providerId}}"{{#errors.providerId}} aria-invalid="true"{{/errors.providerId}}>
        <p class="help" id="providerId-help">Apps name it when they register push tokens.</p>
        {{#errors.providerId}}<p class="field-error" id="providerId-error">{{errors.providerId}}</p>{{/errors.providerId}}
      </div>
      <div class="check"><input type="checkbox" id="enabled" name="enabled"{{#values.enabled}} checked{{/values.enabled}}><label for="enabled">Enabled</label></div>

      {{#isFCM}}
      <div class="field">
        <label for="serviceAccountFile">Service-account JSON file</label>
        <input type="file" id="serviceAccountFile" name="serviceAccountFile" accept=".json,application/json" aria-describedby="serviceAccountFile-help{{#errors.serviceAccount}} serviceAccount-error{{/errors.serviceAccount}}">
        <p class="help" id="serviceAccountFile-help">Firebase console → Project settings → Service accounts → Generate new private key.</p>
      </div>
      <div class="field">
        <label for="serviceAccount">…or paste its JSON</label>
        <textarea id="serviceAccount" name="serviceAccount" rows="6" class="code" spellcheck="false"{{#errors.serviceAccount}} aria-invalid="true" aria-describedby="serviceAccount-error"{{/errors.serviceAccount}}>{{values.serviceAccount}}</textarea>
        {{#errors.serviceAccount}}<p class="field-error" id="serviceAccount-error">{{errors.serviceAccount}}</p>{{/errors.serviceAccount}}
      </div>
      <div class="check"><input type="checkbox" id="includeNotificationKey" name="includeNotificationKey"{{#values.includeNotificationKey}} checked{{/values.includeNotificationKey}}><label for="includeNotificationKey">Include the notification key (Android shows the push itself)</label></div>
      {{/isFCM}}

      {{#isAPNs}}
      <fieldset>
        <legend>Authentication</legend>
        <div class="check"><input type="radio" id="auth-token" name="auth" value="token"{{#tokenAuth}} checked{{/tokenAuth}}><label for="auth-token">Token (.p8 key)</label></div>
        <div class="check"><input type="radio" id="auth-certificate" name="auth" value="certificate"{{#certificateAuth}} checked{{/certificateAuth}}><label for="auth-certificate">Certificate (.p12)</label></div>
        {{#errors.auth}}<p class="field-error" id="auth-error">{{errors.auth}}</p>{{/errors.auth}}
      </fieldset>
      <fieldset data-auth="token">
        <legend>Token auth</legend>
        <div class="field">
          <label for="privateKeyFile">.p8 key file</label>
          <input type="file" id="privateKeyFile" name="privateKeyFile" accept=".p8,.pem"{{#errors.privateKey}} aria-describedby="privateKey-error"{{/errors.privateKey}}>
        </div>
        <div class="field">
          <label for="privateKey">…or paste the key (PEM)</label>
          <textarea id="privateKey" name="privateKey" rows="5" class="code" spellcheck="false"{{#errors.privateKey}} aria-invalid="true" aria-describedby="privateKey-error"{{/errors.privateKey}}>{{values.privateKey}}</textarea>
          {{#errors.privateKey}}<p class="field-error" id="privateKey-error">{{errors.privateKey}}</p>{{/errors.privateKey}}
        </div>
        <div class="field">
          <label for="keyId">Key ID</label>
          <input id="keyId" name="keyId" value="{{values.keyId}}" autocomplete="off"{{#errors.keyId}} aria-invalid="true" aria-describedby="keyId-error"{{/errors.keyId}}>
          {{#errors.keyId}}<p class="field-error" id="keyId-error">{{errors.keyId}}</p>{{/errors.keyId}}
        </div>
        <div class="field">
          <label for="teamId">Team ID</label>
          <input id="teamId" name="teamId" value="{{values.teamId}}" autocomplete="off"{{#errors.teamId}} aria-invalid="true" aria-describedby="teamId-error"{{/errors.teamId}}>
          {{#errors.teamId}}<p class="field-error" id="teamId-error">{{errors.teamId}}</p>{{/errors.teamId}}
        </div>
      </fieldset>
      <fieldset data-auth="certificate">
        <legend>Certificate auth</legend>
        <input type="hidden" name="p12Base64" value="{{values.p12Base64}}">
        <div class="field">
          <label for="p12File">.p12 file{{#values.p12Name}} (kept: {{values.p12Name}}){{/values.p12Name}}</label>
          <input type="file" id="p12File" name="p12File" accept=".p12,.pfx"{{#errors.p12}} aria-invalid="true" aria-describedby="p12-error"{{/errors.p12}}>
          <input type="hidden" name="p12Name" value="{{values.p12Name}}">
          {{#errors.p12}}<p class="field-error" id="p12-error">{{errors.p12}}</p>{{/errors.p12}}
        </div>
        <div class="field">
          <label for="password">.p12 password</label>
          <input type="password" id="password" name="password" autocomplete="off"{{#errors.password}} aria-invalid="true" aria-describedby="password-error"{{/errors.password}}>
          {{#errors.password}}<p class="field-error" id="password-error">{{errors.password}}</p>{{/errors.password}}
        </div>
        {{#expires}}<p class="help">Current certificate expires {{expires}}.</p>{{/expires}}
      </fieldset>
      <div class="field">
        <label for="bundleId">Bundle ID</label>
        <input id="bundleId" name="bundleId" value="{{values.bundleId}}" autocomplete="off"{{#errors.bundleId}} aria-invalid="true" aria-describedby="bundleId-error"{{/errors.bundleId}}>
        {{#errors.bundleId}}<p class="field-error" id="bundleId-error">{{errors.bundleId}}</p>{{/errors.bundleId}}
      </div>
      <fieldset>
        <legend>Options</legend>
        <div class="check"><input type="checkbox" id="production" name="production"{{#values.production}} checked{{/values.production}}><label for="production">Production (off: the sandbox)</label></div>
        <div class="check"><input type="checkbox" id="contentAvailable" name="contentAvailable"{{#values.contentAvailable}} checked{{/values.contentAvailable}}><label for="contentAvailable">content-available</label></div>
        <div class="check"><input type="checkbox" id="mutableContent" name="mutableContent"{{#values.mutableContent}} checked{{/values.mutableContent}}><label for="mutableContent">mutable-content</label></div>
      </fieldset>
      {{/isAPNs}}

      {{#isCustom}}
      <div class="field">
        <label for="url">Webhook URL</label>
        <input id="url" name="url" type="url" value="{{values.url}}" placeholder="https://" aria-describedby="url-help{{#errors.url}} url-error{{/errors.url}}"{{#errors.url}} aria-invalid="true"{{/errors.url}}>
        <p class="help" id="url-help">HTTPS only. Herald POSTs one call per recipient and waits 2 seconds for the answer.</p>
        {{#errors.url}}<p class="field-error" id="url-error">{{errors.url}}</p>{{/errors.url}}
      </div>
      <div class="field">
        <label for="basicAuthUsername">Basic auth username (optional)</label>
        <input id="basicAuthUsername" name="basicAuthUsername" value="{{values.basicAuthUsername}}" autocomplete="off"{{#errors.basicAuthUsername}} aria-invalid="true" aria-describedby="basicAuthUsername-error"{{/errors.basicAuthUsername}}>
        {{#errors.basicAuthUsername}}<p class="field-error" id="basicAuthUsername-error">{{errors.basicAuthUsername}}</p>{{/errors.basicAuthUsername}}
      </div>
      <div class="field">
        <label for="basicAuthPassword">Basic auth password</label>
        <input type="password" id="basicAuthPassword" name="basicAuthPassword" autocomplete="new-password"{{#errors.basicAuthPassword}} aria-invalid="true" aria-describedby="basicAuthPassword-error"{{/errors.basicAuthPassword}}>
        {{#errors.basicAuthPassword}}<p class="field-error" id="basicAuthPassword-error">{{errors.basicAuthPassword}}</p>{{/errors.basicAuthPassword}}
      </div>
      {{/isCustom}}

      {{#isHMS}}
      <div class="field">
        <label for="hmsAppId">App ID (AppGallery Connect)</label>
        <input id="hmsAppId" name="hmsAppId" value="{{values.hmsAppId}}" inputmode="numeric"{{#errors.hmsAppId}} aria-invalid="true" aria-describedby="hmsAppId-error"{{/errors.hmsAppId}}>
        {{#errors.hmsAppId}}<p class="field-error" id="hmsAppId-error">{{errors.hmsAppId}}</p>{{/errors.hmsAppId}}
      </div>
      <div class="field">
        <label for="clientSecret">Client secret</label>
        <input type="password" id="clientSecret" name="clientSecret" autocomplete="off"{{#errors.clientSecret}} aria-invalid="true" aria-describedby="clientSecret-error"{{/errors.clientSecret}}>
        {{#errors.clientSecret}}<p class="field-error" id="clientSecret-error">{{errors.clientSecret}}</p>{{/errors.clientSecret}}
      </div>
      <div class="check"><input type="checkbox" id="includeNotificationKey" name="includeNotificationKey"{{#values.includeNotificationKey}} checked{{/values.includeNotificationKey}}><label for="includeNotificationKey">Include the notification key</label></div>
      {{/isHMS}}
      <button type="submit">{{#creating}}Add provider{{/creating}}{{^creating}}Save provider{{/creating}}</button>
    </form>

    {{^creating}}
    <section class="card" aria-labelledby="test-h">
      <h2 id="test-h">Send a test push</h2>
      <form method="post" action="/dashboard/providers/{{providerId}}/test" novalidate>
        <input type="hidden" name="_csrf" value="{{csrf}}">
        {{#testErrors.form}}<p class="form-error" role="alert">{{testErrors.form}}</p>{{/testErrors.form}}
        {{^isCustom}}
        <div class="field">
          <label for="pushToken">Device push token</label>
          <input id="pushToken" name="pushToken" value="{{testValues.pushToken}}" autocomplete="off" class="code"{{#testErrors.pushToken}} aria-invalid="true" aria-describedby="pushToken-error"{{/testErrors.pushToken}}>
          {{#testErrors.pushToken}}<p class="field-error" id="pushToken-error">{{testErrors.pushToken}}</p>{{/testErrors.pushToken}}
        </div>
        <div class="field">
          <label for="platform">Platform</label>
          <select id="platform" name="platform"{{#testErrors.platform}} aria-invalid="true" aria-describedby="platform-error"{{/testErrors.platform}}>{{#platforms}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/platforms}}</select>
          {{#testErrors.platform}}<p class="field-error" id="platform-error">{{testErrors.platform}}</p>{{/testErrors.platform}}
        </div>
        {{/isCustom}}
        {{#isCustom}}
        <div class="field">
          <label for="uid">Recipient uid</label>
          <input id="uid" name="uid" value="{{testValues.uid}}">
        </div>
        {{/isCustom}}
        <div class="field">
          <label for="title">Title</label>
          <input id="title" name="title" value="{{testValues.title}}"{{#testErrors.title}} aria-invalid="true" aria-describedby="title-error"{{/testErrors.title}}>
          {{#testErrors.title}}<p class="field-error" id="title-error">{{testErrors.title}}</p>{{/testErrors.title}}
        </div>
        <div class="field">
          <label for="body">Body</label>
          <input id="body" name="body" value="{{testValues.body}}"{{#testErrors.body}} aria-invalid="true" aria-describedby="body-error"{{/testErrors.body}}>
          {{#testErrors.body}}<p class="field-error" id="body-error">{{testErrors.body}}</p>{{/testErrors.body}}
        </div>
        <button type="submit">Send test push</button>
      </form>
      {{#verdict}}
      <div class="verdict {{#ok}}ok{{/ok}}{{^ok}}bad{{/ok}}" id="verdict" role="status">
        <h3>Provider's verdict: <span class="outcome">{{outcome}}</span></h3>
        <dl class="facts">
          <dt>HTTP status</dt><dd>{{status}}</dd>
          {{#reason}}<dt>Reason</dt><dd>{{reason}}</dd>{{/reason}}
          {{#messageId}}<dt>Message id</dt><dd class="code">{{messageId}}</dd>{{/messageId}}
          <dt>Latency</dt><dd>{{latency}}</dd>
          {{#pruned}}<dt>Token</dt><dd>removed (the provider says it is no longer valid)</dd>{{/pruned}}
        </dl>
      </div>
      {{/verdict}}
    </section>
    <section class="card danger" aria-labelledby="delete-h">
      <h2 id="delete-h">Delete</h2>
      <form method="post" action="/dashboard/providers/{{providerId}}/delete">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <div class="check"><input type="checkbox" id="force" name="force"><label for="force">Also delete the push tokens registered with it</label></div>
        <button type="submit" class="danger">Delete provider</button>
      </form>
    </section>
    {{/creating}}
    """#

    static let templates = #"""
    <form class="card inline" method="get" action="/dashboard/templates">
      <div class="field"><label for="eventType">Event type</label>
        <select id="eventType" name="eventType">{{#eventTypes}}<option value="{{value}}">{{label}}</option>{{/eventTypes}}</select></div>
      <div class="field"><label for="receiverType">Receiver</label>
        <select id="receiverType" name="receiverType">{{#receiverTypes}}<option value="{{value}}">{{label}}</option>{{/receiverTypes}}</select></div>
      <div class="field"><label for="locale">Locale</label><input id="locale" name="locale" value="default" size="8"></div>
      <button type="submit">Edit</button>
    </form>
    <div class="table-wrap"><table>
      <caption>Templates in force (built-in ones until you change them). Variables: {{variables}}.</caption>
      <thead><tr><th scope="col">Event</th><th scope="col">Receiver</th><th scope="col">Locale</th><th scope="col">Title</th><th scope="col">Body</th><th scope="col"><span class="sr-only">Edit</span></th></tr></thead>
      <tbody>{{#templates}}<tr><td>{{eventType}}</td><td>{{receiverType}}</td><td>{{locale}}{{#builtIn}} <span class="muted">(built-in)</span>{{/builtIn}}</td>
        <td class="code">{{title}}</td><td class="code">{{body}}</td><td><a href="{{link}}">Edit<span class="sr-only"> {{eventType}} {{receiverType}} {{locale}}</span></a></td></tr>{{/templates}}</tbody>
    </table></div>
    """#

    static let template = #"""
    <div class="columns">
    <form class="card" id="template-form" method="post" action="/dashboard/templates" data-preview="/dashboard/templates/preview" data-preview-target="template-preview" novalidate>
      <input type="hidden" name="_csrf" value="{{csrf}}">
      {{#builtIn}}<p class="muted">This is the built-in template; saving makes it yours.</p>{{/builtIn}}
      {{#errors.form}}<p class="form-error" role="alert">{{errors.form}}</p>{{/errors.form}}
      <div class="field"><label for="eventType">Event type</label>
        <select id="eventType" name="eventType">{{#eventTypes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/eventTypes}}</select></div>
      <div class="field"><label for="receiverType">Receiver</label>
        <select id="receiverType" name="receiverType">{{#receiverTypes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/receiverTypes}}</select></div>
      <div class="field"><label for="locale">Locale</label>
        <input id="locale" name="locale" value="{{values.locale}}"{{#errors.locale}} aria-invalid="true" aria-describedby="locale-error"{{/errors.locale}}>
        {{#errors.locale}}<p class="field-error" id="locale-error">{{errors.locale}}</p>{{/errors.locale}}</div>
      <div class="field"><label for="title">Title</label>
        <input id="title" name="title" class="code" value="{{values.title}}"{{#errors.title}} aria-invalid="true" aria-describedby="title-error"{{/errors.title}}>
        {{#errors.title}}<p class="field-error" id="title-error">{{errors.title}}</p>{{/errors.title}}</div>
      <div class="field"><label for="body">Body</label>
        <textarea id="body" name="body" class="code" rows="3"{{#errors.body}} aria-invalid="true" aria-describedby="body-error"{{/errors.body}}>{{values.body}}</textarea>
        {{#errors.body}}<p class="field-error" id="body-error">{{errors.body}}</p>{{/errors.body}}</div>
      <div class="field"><label for="titleLocKey">Title localisation key (optional)</label>
        <input id="titleLocKey" name="titleLocKey" value="{{values.titleLocKey}}"></div>
      <div class="field"><label for="bodyLocKey">Body localisation key (optional)</label>
        <input id="bodyLocKey" name="bodyLocKey" value="{{values.bodyLocKey}}"></div>
      <p class="help">Variables: <code>{{variables}}</code></p>
      <div class="buttons">
        <button type="submit" name="action" value="save">Save template</button>
        <button type="submit" name="action" value="preview" class="secondary">Preview</button>
        <button type="submit" name="action" value="reset" class="secondary">Back to built-in</button>
      </div>
    </form>
    <section class="card" aria-labelledby="preview-h">
      <h2 id="preview-h">Preview for a sample event</h2>
      <div id="template-preview" aria-live="polite">{{#preview}}{{> template-preview}}{{/preview}}</div>
    </section>
    </div>
    """#

    static let templatePreview = #"""
    {{#ok}}<div class="push-preview"><p class="push-title" id="preview-title">{{title}}</p><p class="push-body" id="preview-body">{{body}}</p>
    {{#locKey}}<p class="muted">loc-key: {{locKey}}</p>{{/locKey}}</div>{{/ok}}
    {{^ok}}<p class="form-error" id="preview-error">{{error}}</p>{{/ok}}
    """#

    static let users = #"""
    <form class="card inline" method="get" action="/dashboard/users" role="search">
      <div class="field"><label for="q">Find a user by uid or name</label><input id="q" name="q" type="search" value="{{q}}"></div>
      <button type="submit">Search</button>
    </form>
    {{#empty}}<p class="empty">{{#searched}}No user matches “{{q}}”.{{/searched}}{{^searched}}No users yet.{{/searched}}</p>{{/empty}}
    {{^empty}}<div class="table-wrap"><table>
      <thead><tr><th scope="col">uid</th><th scope="col">Name</th><th scope="col">Locale</th><th scope="col">Tags</th></tr></thead>
      <tbody>{{#users}}<tr><td><a href="{{link}}">{{uid}}</a></td><td>{{name}}</td><td>{{locale}}</td><td>{{tags}}</td></tr>{{/users}}</tbody>
    </table></div>{{/empty}}
    """#

    static let user = #"""
    <dl class="facts card"><dt>uid</dt><dd>{{uid}}</dd><dt>Name</dt><dd>{{name}}</dd><dt>Locale</dt><dd>{{locale}}</dd>
      <dt>Tags</dt><dd>{{tags}}</dd><dt>Created</dt><dd>{{created}}</dd><dt>Presence</dt><dd>{{#online}}online{{/online}}{{^online}}offline{{/online}}</dd></dl>
    <section aria-labelledby="sessions-h"><h2 id="sessions-h">Sessions</h2>
      <div class="table-wrap"><table><thead><tr><th scope="col">Session</th><th scope="col">Device</th><th scope="col">Presence</th><th scope="col">Created</th><th scope="col">Expires</th></tr></thead>
      <tbody>{{#sessions}}<tr><td class="code">{{id}}</td><td>{{device}}</td><td>{{presence}}</td><td>{{created}}</td><td>{{expires}}</td></tr>{{/sessions}}
      {{^sessions}}<tr><td colspan="5" class="empty">No sessions.</td></tr>{{/sessions}}</tbody></table></div></section>
    <section aria-labelledby="tokens-h"><h2 id="tokens-h">Push tokens</h2>
      <div class="table-wrap"><table><thead><tr><th scope="col">Token</th><th scope="col">Platform</th><th scope="col">Provider</th><th scope="col">Session</th><th scope="col">Last seen</th></tr></thead>
      <tbody>{{#tokens}}<tr><td class="code">{{token}}</td><td>{{platform}}</td><td>{{provider}}</td><td class="code">{{session}}</td><td>{{lastSeen}}</td></tr>{{/tokens}}
      {{^tokens}}<tr><td colspan="5" class="empty">No push tokens.</td></tr>{{/tokens}}</tbody></table></div></section>
    <section aria-labelledby="prefs-h"><h2 id="prefs-h">Preferences</h2>
      <ul class="chips">{{#preferences}}<li class="chip {{#on}}on{{/on}}{{^on}}off{{/on}}">{{event}}: {{#on}}on{{/on}}{{^on}}off{{/on}}</li>{{/preferences}}
      <li class="chip">group mentions only: {{#mentionsOnly}}yes{{/mentionsOnly}}{{^mentionsOnly}}no{{/mentionsOnly}}</li>
      {{#dnd}}<li class="chip">do not disturb: {{dnd}}</li>{{/dnd}}</ul>
      {{#hasMutes}}<p>Muted: {{#mutes}}<span class="chip">{{conversation}} until {{until}}</span> {{/mutes}}</p>{{/hasMutes}}</section>
    <section aria-labelledby="deliveries-h"><h2 id="deliveries-h">Recent deliveries</h2>{{> deliveries}}</section>
    """#

    static let deliveries = #"""
    <div class="table-wrap"><table class="deliveries">
      <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">User</th><th scope="col">Channel</th><th scope="col">Target</th>
        <th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Attempts</th></tr></thead>
      <tbody>{{#deliveries}}<tr><td>{{when}}</td><td>{{#eventLink}}<a href="{{eventLink}}" class="code">{{event}}</a>{{/eventLink}}{{^eventLink}}<span class="code">{{event}}</span>{{/eventLink}}{{#eventLabel}} <span class="muted">{{eventLabel}}</span>{{/eventLabel}}</td><td><a href="{{userLink}}">{{uid}}</a></td>
        <td>{{channel}}{{#platform}} <span class="muted">{{platform}}</span>{{/platform}}</td><td class="code">{{target}}</td>
        <td><span class="status s-{{status}}">{{status}}</span>{{#providerStatus}} <span class="muted">HTTP {{providerStatus}}</span>{{/providerStatus}}</td>
        <td>{{reason}}</td><td>{{attempts}}</td></tr>{{/deliveries}}
      {{^deliveries}}<tr><td colspan="8" class="empty">No deliveries.</td></tr>{{/deliveries}}</tbody>
    </table></div>
    """#

    static let events = #"""
    <form class="card inline" method="get" action="/dashboard/events">
      <div class="field"><label for="status">Status</label>
        <select id="status" name="status">{{#statuses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/statuses}}</select></div>
      <button type="submit">Filter</button>
    </form>
    <p class="help">The delivery log, newest first: one row per recipient and target, with the reason for each decision. Open an event to see all of its recipients.</p>
    {{> deliveries}}
    {{#next}}<p><a href="{{next}}">Older deliveries</a></p>{{/next}}
    """#

    static let event = #"""
    <dl class="facts card"><dt>Type</dt><dd>{{type}}</dd><dt>Status</dt><dd>{{status}}</dd><dt>Recipients</dt><dd>{{recipients}}</dd>
      <dt>Received</dt><dd>{{received}}</dd><dt>Finished</dt><dd>{{finished}}</dd>
      <dt>Decisions</dt><dd>{{#counts}}<span class="status s-{{status}}">{{status}}: {{count}}</span> {{/counts}}{{^counts}}none{{/counts}}</dd></dl>
    {{#reason}}<p class="notice" role="status" id="event-reason">{{reason}}</p>{{/reason}}
    {{#body}}<details class="card"><summary>The event</summary><pre class="code">{{body}}</pre></details>{{/body}}
    <h2>Every recipient's decision</h2>
    {{> deliveries}}
    {{#truncated}}<p class="help">Showing the first 5,000.</p>{{/truncated}}
    """#

    static let feed = #"""
    <div class="columns">
    <section class="card" aria-labelledby="channels-h">
      <h2 id="channels-h">Channels</h2>
      <ul class="list">{{#channels}}<li><strong>{{name}}</strong> <span class="code">{{id}}</span> {{description}}
        <form class="inline-form" method="post" action="/dashboard/feed/channel/{{id}}/delete"><input type="hidden" name="_csrf" value="{{csrf}}"><button class="link" type="submit">Delete<span class="sr-only"> channel {{id}}</span></button></form></li>{{/channels}}
        {{^channels}}<li class="empty">None yet.</li>{{/channels}}</ul>
      <form method="post" action="/dashboard/feed/channels" novalidate>
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <div class="field"><label for="channelId">ID</label><input id="channelId" name="channelId" value="{{values.channelId}}"{{#errors.channelId}} aria-invalid="true" aria-describedby="channelId-error"{{/errors.channelId}}>
          {{#errors.channelId}}<p class="field-error" id="channelId-error">{{errors.channelId}}</p>{{/errors.channelId}}</div>
        <div class="field"><label for="channelName">Name</label><input id="channelName" name="channelName" value="{{values.channelName}}"{{#errors.channelName}} aria-invalid="true" aria-describedby="channelName-error"{{/errors.channelName}}>
          {{#errors.channelName}}<p class="field-error" id="channelName-error">{{errors.channelName}}</p>{{/errors.channelName}}</div>
        <div class="field"><label for="channelDescription">Description</label><input id="channelDescription" name="channelDescription" value="{{values.channelDescription}}"></div>
        <button type="submit">Add channel</button>
      </form>
    </section>
    <section class="card" aria-labelledby="categories-h">
      <h2 id="categories-h">Categories</h2>
      <ul class="list">{{#categories}}<li><strong>{{label}}</strong> <span class="code">{{id}}</span>
        <form class="inline-form" method="post" action="/dashboard/feed/category/{{id}}/delete"><input type="hidden" name="_csrf" value="{{csrf}}"><button class="link" type="submit">Delete<span class="sr-only"> category {{id}}</span></button></form></li>{{/categories}}
        {{^categories}}<li class="empty">None yet.</li>{{/categories}}</ul>
      <form method="post" action="/dashboard/feed/categories" novalidate>
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <div class="field"><label for="categoryId">ID</label><input id="categoryId" name="categoryId" value="{{values.categoryId}}"{{#errors.categoryId}} aria-invalid="true" aria-describedby="categoryId-error"{{/errors.categoryId}}>
          {{#errors.categoryId}}<p class="field-error" id="categoryId-error">{{errors.categoryId}}</p>{{/errors.categoryId}}</div>
        <div class="field"><label for="categoryLabel">Label</label><input id="categoryLabel" name="categoryLabel" value="{{values.categoryLabel}}"{{#errors.categoryLabel}} aria-invalid="true" aria-describedby="categoryLabel-error"{{/errors.categoryLabel}}>
          {{#errors.categoryLabel}}<p class="field-error" id="categoryLabel-error">{{errors.categoryLabel}}</p>{{/errors.categoryLabel}}</div>
        <button type="submit">Add category</button>
      </form>
    </section>
    </div>
    <section class="card" aria-labelledby="cards-h">
      <h2 id="cards-h">Card templates</h2>
      <ul class="list">{{#templates}}<li><a href="{{link}}">{{name}}</a> <span class="code">{{id}}</span>{{#category}} · {{category}}{{/category}}{{#channel}} · {{channel}}{{/channel}}</li>{{/templates}}
        {{^templates}}<li class="empty">None yet.</li>{{/templates}}</ul>
      <p><a class="button secondary" href="/dashboard/feed/templates/new">New card template</a></p>
    </section>
    <section class="card" aria-labelledby="campaigns-h">
      <h2 id="campaigns-h">Campaigns</h2>
      <div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Audience</th><th scope="col">Items</th><th scope="col">Send at</th></tr></thead>
      <tbody>{{#campaigns}}<tr><td><a href="{{link}}">{{name}}</a></td><td><span class="status s-{{status}}">{{status}}</span></td><td>{{audience}}</td><td>{{items}} / {{size}}</td><td>{{sendAt}}</td></tr>{{/campaigns}}
      {{^campaigns}}<tr><td colspan="5" class="empty">No campaigns yet.</td></tr>{{/campaigns}}</tbody></table></div>
      <p><a class="button" href="/dashboard/campaigns/new">New campaign</a></p>
    </section>
    """#

    static let cardTemplate = #"""
    <div class="columns">
    <form class="card" method="post" action="/dashboard/feed/templates" data-preview="/dashboard/feed/templates/preview" data-preview-target="card-preview" novalidate>
      <input type="hidden" name="_csrf" value="{{csrf}}">
      <input type="hidden" name="creating" value="{{#creating}}1{{/creating}}{{^creating}}0{{/creating}}">
      {{#errors.form}}<p class="form-error" role="alert">{{errors.form}}</p>{{/errors.form}}
      <div class="field"><label for="id">ID</label><input id="id" name="id" value="{{values.id}}"{{^creating}} readonly{{/creating}}{{#errors.id}} aria-invalid="true" aria-describedby="id-error"{{/errors.id}}>
        {{#errors.id}}<p class="field-error" id="id-error">{{errors.id}}</p>{{/errors.id}}</div>
      <div class="field"><label for="name">Name</label><input id="name" name="name" value="{{values.name}}"{{#errors.name}} aria-invalid="true" aria-describedby="name-error"{{/errors.name}}>
        {{#errors.name}}<p class="field-error" id="name-error">{{errors.name}}</p>{{/errors.name}}</div>
      <div class="field"><label for="categoryId">Category</label><select id="categoryId" name="categoryId"{{#errors.categoryId}} aria-invalid="true" aria-describedby="categoryId-error"{{/errors.categoryId}}>{{#categories}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/categories}}</select>
        {{#errors.categoryId}}<p class="field-error" id="categoryId-error">{{errors.categoryId}}</p>{{/errors.categoryId}}</div>
      <div class="field"><label for="channelId">Channel</label><select id="channelId" name="channelId"{{#errors.channelId}} aria-invalid="true" aria-describedby="channelId-error"{{/errors.channelId}}>{{#channels}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/channels}}</select>
        {{#errors.channelId}}<p class="field-error" id="channelId-error">{{errors.channelId}}</p>{{/errors.channelId}}</div>
      <div class="field"><label for="card">Card (Card Schema JSON)</label>
        <textarea id="card" name="card" rows="18" class="code" spellcheck="false" aria-describedby="card-problems"{{#errors.card}} aria-invalid="true"{{/errors.card}}>{{values.card}}</textarea>
        {{#errors.card}}<p class="field-error" id="card-error">{{errors.card}}</p>{{/errors.card}}</div>
      <div class="buttons"><button type="submit">Save template</button></div>
    </form>
    <section class="card" aria-labelledby="card-preview-h">
      <h2 id="card-preview-h">Preview</h2>
      <div id="card-preview" aria-live="polite">{{#preview}}{{> card-preview}}{{/preview}}</div>
    </section>
    </div>
    """#

    static let cardPreview = #"""
    <div id="card-problems">{{#hasProblems}}<p class="form-error">Problems, by JSON pointer:</p>
    <ul class="problems">{{#problems}}<li><code class="pointer">{{pointer}}</code> {{message}}</li>{{/problems}}</ul>{{/hasProblems}}
    {{^hasProblems}}<p class="ok-text">The card follows the Card Schema.</p>{{/hasProblems}}</div>
    {{#light}}<div class="card-previews">
      <figure class="preview-light"><figcaption>Light</figcaption><div class="card-canvas light">{{{light}}}</div></figure>
      <figure class="preview-dark"><figcaption>Dark</figcaption><div class="card-canvas dark">{{{dark}}}</div></figure>
    </div>{{/light}}
    """#

    static let campaignNew = #"""
    <div class="columns">
    <form class="card" method="post" action="/dashboard/campaigns" data-preview="/dashboard/feed/templates/preview" data-preview-target="card-preview" novalidate>
      <input type="hidden" name="_csrf" value="{{csrf}}">
      {{#errors.form}}<p class="form-error" role="alert">{{errors.form}}</p>{{/errors.form}}
      <div class="field"><label for="name">Name</label><input id="name" name="name" value="{{values.name}}"{{#errors.name}} aria-invalid="true" aria-describedby="name-error"{{/errors.name}}>
        {{#errors.name}}<p class="field-error" id="name-error">{{errors.name}}</p>{{/errors.name}}</div>
      <fieldset><legend>Audience</legend>
        <div class="field"><label for="audience">Who</label><select id="audience" name="audience">{{#audiences}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/audiences}}</select>
          {{#errors.audience}}<p class="field-error" id="audience-error">{{errors.audience}}</p>{{/errors.audience}}</div>
        <div class="field"><label for="audienceValues">Users, tags or groups (comma-separated)</label>
          <input id="audienceValues" name="audienceValues" value="{{values.audienceValues}}"{{#errors.audienceValues}} aria-invalid="true" aria-describedby="audienceValues-error"{{/errors.audienceValues}}>
          {{#errors.audienceValues}}<p class="field-error" id="audienceValues-error">{{errors.audienceValues}}</p>{{/errors.audienceValues}}</div>
      </fieldset>
      <fieldset><legend>Content</legend>
        <div class="field"><label for="templateId">Card template</label><select id="templateId" name="templateId"{{#errors.templateId}} aria-invalid="true" aria-describedby="templateId-error"{{/errors.templateId}}>{{#templates}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/templates}}</select>
          {{#errors.templateId}}<p class="field-error" id="templateId-error">{{errors.templateId}}</p>{{/errors.templateId}}</div>
        <div class="field"><label for="data">Template data (JSON object)</label><input id="data" name="data" class="code" value="{{values.data}}"{{#errors.data}} aria-invalid="true" aria-describedby="data-error"{{/errors.data}}>
          {{#errors.data}}<p class="field-error" id="data-error">{{errors.data}}</p>{{/errors.data}}</div>
        <div class="field"><label for="card">…or a card (Card Schema JSON)</label>
          <textarea id="card" name="card" rows="12" class="code" spellcheck="false"{{#errors.card}} aria-invalid="true" aria-describedby="card-error"{{/errors.card}}>{{values.card}}</textarea>
          {{#errors.card}}<p class="field-error" id="card-error">{{errors.card}}</p>{{/errors.card}}</div>
        <div class="field"><label for="categoryId">Category</label><select id="categoryId" name="categoryId">{{#categories}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/categories}}</select>
          {{#errors.categoryId}}<p class="field-error" id="categoryId-error">{{errors.categoryId}}</p>{{/errors.categoryId}}</div>
        <div class="field"><label for="channelId">Channel</label><select id="channelId" name="channelId">{{#channels}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/channels}}</select>
          {{#errors.channelId}}<p class="field-error" id="channelId-error">{{errors.channelId}}</p>{{/errors.channelId}}</div>
      </fieldset>
      <fieldset><legend>Push</legend>
        <div class="check"><input type="checkbox" id="push" name="push"{{#pushChecked}} checked{{/pushChecked}}><label for="push">Also send a push</label></div>
        <div class="field"><label for="pushTitle">Push title</label><input id="pushTitle" name="pushTitle" value="{{values.pushTitle}}"{{#errors.pushTitle}} aria-invalid="true" aria-describedby="pushTitle-error"{{/errors.pushTitle}}>
          {{#errors.pushTitle}}<p class="field-error" id="pushTitle-error">{{errors.pushTitle}}</p>{{/errors.pushTitle}}</div>
        <div class="field"><label for="pushBody">Push body</label><input id="pushBody" name="pushBody" value="{{values.pushBody}}"{{#errors.pushBody}} aria-invalid="true" aria-describedby="pushBody-error"{{/errors.pushBody}}>
          {{#errors.pushBody}}<p class="field-error" id="pushBody-error">{{errors.pushBody}}</p>{{/errors.pushBody}}</div>
      </fieldset>
      <div class="field"><label for="sendAt">Schedule (UTC; empty: a draft you send when ready)</label>
        <input type="datetime-local" id="sendAt" name="sendAt" value="{{values.sendAt}}"{{#errors.sendAt}} aria-invalid="true" aria-describedby="sendAt-error"{{/errors.sendAt}}>
        {{#errors.sendAt}}<p class="field-error" id="sendAt-error">{{errors.sendAt}}</p>{{/errors.sendAt}}</div>
      <button type="submit">Create campaign</button>
    </form>
    <section class="card" aria-labelledby="card-preview-h">
      <h2 id="card-preview-h">Card preview</h2>
      <div id="card-preview" aria-live="polite">{{#preview}}{{> card-preview}}{{/preview}}</div>
    </section>
    </div>
    """#

    static let campaign = #"""
    {{#refresh}}<div data-refresh="2" hidden></div>{{/refresh}}
    <dl class="facts card"><dt>Status</dt><dd><span class="status s-{{status}}" id="campaign-status">{{status}}</span></dd>
      <dt>Audience</dt><dd>{{audience}}</dd>{{#template}}<dt>Card template</dt><dd>{{template}}</dd>{{/template}}
      <dt>Send at</dt><dd>{{sendAt}}</dd><dt>Started</dt><dd>{{started}}</dd><dt>Finished</dt><dd>{{finished}}</dd>
      {{#hasPush}}<dt>Push</dt><dd>{{pushTitle}} — {{pushBody}}</dd>{{/hasPush}}</dl>
    <div class="card">
      <label for="progress">Progress: {{items}} of {{size}} items</label>
      <progress id="progress" max="100" value="{{progress}}">{{progress}} %</progress>
      <div class="buttons">
        {{#canSend}}<form method="post" action="/dashboard/campaigns/{{id}}/send"><input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit">Send now</button></form>{{/canSend}}
        {{#canCancel}}<form method="post" action="/dashboard/campaigns/{{id}}/cancel"><input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="danger">Cancel campaign</button></form>{{/canCancel}}
      </div>
    </div>
    <section class="card" aria-labelledby="stats-h">
      <h2 id="stats-h">Stats</h2>
      <ul class="tiles">
        <li class="tile"><span class="tile-label">Items</span><span class="tile-value" id="stat-items">{{items}}</span></li>
        <li class="tile"><span class="tile-label">Delivered</span><span class="tile-value" id="stat-delivered">{{delivered}}</span></li>
        <li class="tile"><span class="tile-label">Read</span><span class="tile-value" id="stat-read">{{read}}</span></li>
        <li class="tile"><span class="tile-label">Engaged</span><span class="tile-value" id="stat-engaged">{{engaged}}</span></li>
        {{#hasPush}}<li class="tile"><span class="tile-label">Pushes sent</span><span class="tile-value" id="stat-pushes">{{pushesSent}}</span>
          <span class="tile-note">{{pushesDelivered}} delivered, {{pushesClicked}} clicked, {{pushesFailed}} failed, {{pushesPending}} waiting</span></li>{{/hasPush}}
      </ul>
      <figure>{{{funnel}}}</figure>
      {{#hasEngagements}}<p>Engagements: {{#engagements}}<span class="chip">{{name}}: {{count}}</span> {{/engagements}}</p>{{/hasEngagements}}
    </section>
    """#
}
