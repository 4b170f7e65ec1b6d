/// The REST API anywall-server serves, as an OpenAPI 3 document: served at `MOUNT/openapi.json`
/// for tools (schemathesis fuzzes the running server from it), and kept in step with the routes
/// by a test. Paths are relative to the mount; every route but `/health` and this document
/// needs the application id.
package enum OpenAPIDocument {
    package static let json = #"""
    {
      "openapi": "3.0.3",
      "info": {"title": "anywall-server", "version": "1", "description": "Parse Server's REST API for the Posts class, users, sessions, config, schemas and batches. A POST body may carry the method and keys instead (_method, _ApplicationId, _SessionToken...), as the JavaScript SDK sends them."},
      "components": {
        "securitySchemes": {
          "applicationId": {"type": "apiKey", "in": "header", "name": "X-Parse-Application-Id"},
          "restKey": {"type": "apiKey", "in": "header", "name": "X-Parse-REST-API-Key"}
        },
        "parameters": {
          "objectId": {"name": "objectId", "in": "path", "required": true, "schema": {"type": "string"}},
          "className": {"name": "className", "in": "path", "required": true, "schema": {"type": "string"}},
          "sessionToken": {"name": "X-Parse-Session-Token", "in": "header", "required": false, "schema": {"type": "string"}},
          "requestId": {"name": "X-Parse-Request-Id", "in": "header", "required": false, "schema": {"type": "string"}}
        },
        "schemas": {
          "GeoPoint": {"type": "object", "required": ["__type", "latitude", "longitude"],
                       "properties": {"__type": {"type": "string", "enum": ["GeoPoint"]}, "latitude": {"type": "number"}, "longitude": {"type": "number"}}},
          "NewPost": {"type": "object", "properties": {"text": {"type": "string"}, "location": {"$ref": "#/components/schemas/GeoPoint"},
                      "user": {"type": "object"}, "parent": {"type": "object"}, "ACL": {"type": "object"}}},
          "Role": {"type": "object", "properties": {"name": {"type": "string"}, "ACL": {"type": "object"}, "users": {"type": "object"}}},
          "Activity": {"type": "object", "properties": {"type": {"type": "string", "enum": ["vote", "report"]}, "post": {"type": "object"},
                       "value": {"type": "integer"}, "reason": {"type": "string"}, "note": {"type": "string"},
                       "location": {"$ref": "#/components/schemas/GeoPoint"}}},
          "Credentials": {"type": "object", "properties": {"username": {"type": "string"}, "password": {"type": "string"}, "name": {"type": "string"},
                          "authData": {"type": "object", "additionalProperties": {"type": ["object", "null"],
                                       "properties": {"id": {"type": "string"}, "access_token": {"type": "string"}}}}}},
          "Config": {"type": "object", "properties": {"params": {"type": "object"}}},
          "Schema": {"type": "object", "properties": {"className": {"type": "string"}, "fields": {"type": "object"}}},
          "Error": {"type": "object", "properties": {"code": {"type": "integer"}, "error": {"type": "string"}}},
          "Batch": {"type": "object", "required": ["requests"],
                    "properties": {"requests": {"type": "array", "items": {"type": "object", "required": ["method", "path"],
                      "properties": {"method": {"type": "string", "enum": ["GET", "POST", "PUT", "DELETE"]}, "path": {"type": "string"}, "body": {"type": "object"}}}}}},
          "PasswordReset": {"type": "object", "properties": {"email": {"type": "string"}}}
        },
        "responses": {
          "answer": {"description": "Parse's answer, or its error: {\"code\":N,\"error\":\"...\"}",
                     "content": {"application/json": {"schema": {"type": "object"}}}}
        }
      },
      "security": [{"applicationId": [], "restKey": []}],
      "paths": {
        "/health": {"get": {"security": [], "responses": {"200": {"$ref": "#/components/responses/answer"}}}},
        "/openapi.json": {"get": {"security": [], "responses": {"200": {"description": "this document"}}}},
        \#(accounts(at: "/users")),
        \#(accounts(at: "/classes/_User")),
        "/login": {
          "get": {"parameters": [{"name": "username", "in": "query", "schema": {"type": "string"}}, {"name": "password", "in": "query", "schema": {"type": "string"}}],
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Credentials"}}}},
                   "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/logout": {"post": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}], "responses": {"default": {"$ref": "#/components/responses/answer"}}}},
        "/users/me": {"get": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}], "responses": {"default": {"$ref": "#/components/responses/answer"}}}},
        "/sessions/me": {"get": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}], "responses": {"default": {"$ref": "#/components/responses/answer"}}}},
        "/requestPasswordReset": {"post": {"description": "Always Parse Server's answer without an email adapter: 500, code 1.",
                                           "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/PasswordReset"}}}},
                                           "responses": {"default": {"$ref": "#/components/responses/answer"}}}},
        "/serverInfo": {"get": {"parameters": [{"name": "X-Parse-Master-Key", "in": "header", "schema": {"type": "string"}}],
                                "responses": {"default": {"$ref": "#/components/responses/answer"}}}},
        "/batch": {"post": {"description": "Sub-request paths start with the mount (e.g. /parse/classes/Posts); at most 50 without the master key.",
                            "parameters": [{"$ref": "#/components/parameters/sessionToken"}],
                            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Batch"}}}},
                            "responses": {"default": {"description": "an array of {\"success\":...} or {\"error\":{\"code\":N,\"error\":\"...\"}}, or Parse's error",
                                                      "content": {"application/json": {"schema": {}}}}}}},
        "/classes/Posts": {
          "get": {"parameters": [
                    {"name": "where", "in": "query", "schema": {"type": "string"}}, {"name": "order", "in": "query", "schema": {"type": "string"}},
                    {"name": "skip", "in": "query", "schema": {"type": "integer"}}, {"name": "limit", "in": "query", "schema": {"type": "integer"}},
                    {"name": "count", "in": "query", "schema": {"type": "integer"}}, {"name": "keys", "in": "query", "schema": {"type": "string"}},
                    {"name": "excludeKeys", "in": "query", "schema": {"type": "string"}}, {"name": "include", "in": "query", "schema": {"type": "string"}}],
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}, {"$ref": "#/components/parameters/requestId"}],
                   "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewPost"}}}},
                   "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/classes/Posts/{objectId}": {
          "parameters": [{"$ref": "#/components/parameters/objectId"}],
          "get": {"parameters": [{"name": "include", "in": "query", "schema": {"type": "string"}}, {"name": "keys", "in": "query", "schema": {"type": "string"}}],
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "put": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}, {"$ref": "#/components/parameters/requestId"}],
                  "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewPost"}}}},
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "delete": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}], "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/classes/Activity": {
          "get": {"parameters": [{"$ref": "#/components/parameters/sessionToken"},
                    {"name": "where", "in": "query", "schema": {"type": "string"}}, {"name": "order", "in": "query", "schema": {"type": "string"}},
                    {"name": "skip", "in": "query", "schema": {"type": "integer"}}, {"name": "limit", "in": "query", "schema": {"type": "integer"}}],
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}],
                   "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Activity"}}}},
                   "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/classes/Activity/{objectId}": {
          "parameters": [{"$ref": "#/components/parameters/objectId"}],
          "get": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}], "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "put": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}],
                  "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Activity"}}}},
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "delete": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}], "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/roles": {
          "get": {"parameters": [{"name": "where", "in": "query", "schema": {"type": "string"}},
                    {"name": "skip", "in": "query", "schema": {"type": "integer"}}, {"name": "limit", "in": "query", "schema": {"type": "integer"}}],
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"parameters": [{"name": "X-Parse-Master-Key", "in": "header", "schema": {"type": "string"}}],
                   "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Role"}}}},
                   "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/roles/{objectId}": {
          "parameters": [{"$ref": "#/components/parameters/objectId"}],
          "get": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "put": {"parameters": [{"name": "X-Parse-Master-Key", "in": "header", "schema": {"type": "string"}}],
                  "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Role"}}}},
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "delete": {"parameters": [{"name": "X-Parse-Master-Key", "in": "header", "schema": {"type": "string"}}],
                     "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/classes/{className}": {
          "parameters": [{"$ref": "#/components/parameters/className"}],
          "get": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "put": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "delete": {"responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/classes/{className}/{objectId}": {
          "parameters": [{"$ref": "#/components/parameters/className"}, {"$ref": "#/components/parameters/objectId"}],
          "get": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "put": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "delete": {"responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/config": {
          "get": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "put": {"parameters": [{"name": "X-Parse-Master-Key", "in": "header", "schema": {"type": "string"}}],
                  "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Config"}}}},
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/schemas": {
          "get": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Schema"}}}},
                   "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/schemas/Posts": {
          "get": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Schema"}}}},
                   "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "put": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Schema"}}}},
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "/schemas/{className}": {
          "parameters": [{"$ref": "#/components/parameters/className"}],
          "get": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Schema"}}}},
                   "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        }
      }
    }
    """#

    /// Sign-up, the find and one account's routes, served at `/users` and as the `_User` class.
    private static func accounts(at path: String) -> String {
        #"""
        "\#(path)": {
          "get": {"parameters": [
                    {"name": "where", "in": "query", "schema": {"type": "string"}}, {"name": "skip", "in": "query", "schema": {"type": "integer"}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer"}}, {"name": "count", "in": "query", "schema": {"type": "integer"}}],
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Credentials"}}}},
                   "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        },
        "\#(path)/{objectId}": {
          "parameters": [{"$ref": "#/components/parameters/objectId"}],
          "get": {"responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "put": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}],
                  "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Credentials"}}}},
                  "responses": {"default": {"$ref": "#/components/responses/answer"}}},
          "delete": {"parameters": [{"$ref": "#/components/parameters/sessionToken"}], "responses": {"default": {"$ref": "#/components/responses/answer"}}}
        }
        """#
    }
}
