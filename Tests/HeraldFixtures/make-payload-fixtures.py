import json, copy, os
OUT = "/work/main/Tests/HeraldFixtures/Payloads"
A1 = "https://assets.cometchat.io/sampleapp/v2/users/cometchat-uid-1.webp"
A2 = "https://assets.cometchat.io/sampleapp/v2/users/cometchat-uid-2.webp"
andrew = {"uid": "cometchat-uid-1", "name": "Andrew Joseph", "avatar": A1, "status": "online", "role": "default", "lastActiveAt": 1699799000}
george = {"uid": "cometchat-uid-2", "name": "George Alan", "avatar": A2}
dev_team = {"guid": "cometchat-guid-1", "name": "Development Team", "icon": "https://example.com/group.png", "type": "public",
            "membersCount": 15, "owner": "cometchat-uid-1", "createdAt": 1699700000}
hiking = {"guid": "cometchat-guid-1", "name": "Hiking group"}
SENT = 1741847453000
app = {"id": "app123", "name": "Acme", "region": "us"}

def importance(event):
    """Herald's interruption level and relevance score of an alert (README: "Mentions and importance")."""
    if event["type"] == "call":
        return "time-sensitive", 1.0
    if event["type"] == "message":
        return "active", 0.8 if event["message"]["receiverType"] == "user" else 0.5
    return "active", 0.2

def conversation(event):
    message = event.get("message", event)
    if "conversationId" in message:
        return message["conversationId"]
    if message.get("receiverType", "user") == "group":
        return "group_" + message["receiver"]["guid"]
    sender = message["sender"]["uid"]
    return sender + "_user_" + message["receiver"]["uid"]

def add_importance(node, event):
    """Every alert's aps says how far it breaks through; every shown Android notification has
    the conversation as its tag and its kind's channel."""
    if isinstance(node, dict):
        aps = node.get("aps")
        if isinstance(aps, dict) and "alert" in aps:
            aps["interruption-level"], aps["relevance-score"] = importance(event)
        android = node.get("android")
        if isinstance(android, dict) and "notification" in android:
            android["notification"]["tag"] = conversation(event)
            android["notification"]["channel_id"] = "calls" if event["type"] == "call" else "messages"
        for value in node.values():
            add_importance(value, event)

def write(name, fixture):
    fixture.setdefault("app", app)
    add_importance(fixture["expected"], fixture["event"])
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(fixture, f, indent=2, ensure_ascii=False, sort_keys=True)
        f.write("\n")

# CometChat iOS: a user message, as the message dictionary shows it.
user_message_event = {"type": "message", "action": "new", "message": {
    "id": 123, "muid": "muid_xyz123", "category": "message", "type": "text", "text": "Hello!",
    "sender": andrew, "receiver": george, "receiverType": "user", "sentAt": SENT}}
user_message_object = {
    "id": 123, "muid": "muid_xyz123", "category": "message", "type": "text", "text": "Hello!",
    "sender": {"uid": "cometchat-uid-1", "name": "Andrew Joseph", "avatar": A1, "status": "online", "role": "default", "lastActiveAt": 1699799000},
    "receiver": "cometchat-uid-2", "receiverType": "user", "sentAt": 1741847453, "deliveredAt": 0, "readAt": 0,
    "conversationId": "cometchat-uid-1_user_cometchat-uid-2"}
# CometChat: the notification details of a chat message.
user_details = {
    "title": "Andrew Joseph", "body": "Hello!",
    "sender": "cometchat-uid-1", "senderName": "Andrew Joseph", "senderAvatar": A1,
    "receiver": "cometchat-uid-2", "receiverName": "George Alan", "receiverAvatar": A2, "receiverType": "user",
    "tag": "123", "conversationId": "cometchat-uid-1_user_cometchat-uid-2", "type": "chat", "sentAt": str(SENT),
    "message": user_message_object}

apns_user = dict(user_details)
apns_user["aps"] = {"alert": {"title": "Andrew Joseph", "body": "Hello!"}, "badge": 1, "sound": "default", "mutable-content": 1,
                    "thread-id": "cometchat-uid-1_user_cometchat-uid-2"}
write("message-user.apns", {
    "description": "CometChat iOS: a user message to an iOS device token (APNs), with the message dictionary and aps.",
    "event": user_message_event, "recipient": "cometchat-uid-2", "badge": 1,
    "provider": {"kind": "apns", "mutableContent": True}, "platform": "apns_ios_device", "route": "alert",
    "expected": {"apns": {"payload": apns_user, "pushType": "alert", "priority": 10, "collapseId": "123"}}})

group_message_event = {"type": "message", "action": "new", "message": {
    "id": 12346, "muid": "muid_abc456", "category": "message", "type": "text", "text": "Hey team!",
    "sender": andrew, "receiver": dev_team, "receiverType": "group", "sentAt": SENT}}
group_message_object = {
    "id": 12346, "muid": "muid_abc456", "category": "message", "type": "text", "text": "Hey team!",
    "sender": user_message_object["sender"],
    "receiver": dict(dev_team, hasJoined=True), "receiverType": "group", "sentAt": 1741847453, "deliveredAt": 0, "readAt": 0,
    "conversationId": "group_cometchat-guid-1"}
group_details = {
    "title": "Development Team", "body": "Andrew Joseph: Hey team!",
    "sender": "cometchat-uid-1", "senderName": "Andrew Joseph", "senderAvatar": A1,
    "receiver": "cometchat-guid-1", "receiverName": "Development Team", "receiverAvatar": "https://example.com/group.png", "receiverType": "group",
    "tag": "12346", "conversationId": "group_cometchat-guid-1", "type": "chat", "sentAt": str(SENT), "message": group_message_object}
apns_group = dict(group_details)
apns_group["aps"] = {"alert": {"title": "Development Team", "body": "Andrew Joseph: Hey team!"}, "badge": 1, "sound": "default",
                     "mutable-content": 1, "thread-id": "group_cometchat-guid-1"}
write("message-group.apns", {
    "description": "CometChat iOS: a group message: titled with the group, 'Sender: text', the receiver a group dictionary.",
    "event": group_message_event, "recipient": "cometchat-uid-2", "badge": 1,
    "provider": {"kind": "apns", "mutableContent": True}, "platform": "apns_ios_device", "route": "alert",
    "expected": {"apns": {"payload": apns_group, "pushType": "alert", "priority": 10, "collapseId": "12346"}}})

def strings(details):
    return {k: (v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), sort_keys=True, ensure_ascii=False)) for k, v in details.items()}

write("message-user.fcm-android", {
    "description": "CometChat/Sendbird: FCM data message (string values, the message object as JSON text), notification key on, priority HIGH (AndroidMessagePriority).",
    "event": user_message_event, "recipient": "cometchat-uid-2", "badge": 1,
    "provider": {"kind": "fcm", "includeNotificationKey": True}, "platform": "fcm_android", "route": "alert",
    "expected": {"fcm": {"token": "TOKEN", "data": strings(user_details), "notification": {"title": "Andrew Joseph", "body": "Hello!"},
                         "android": {"priority": "HIGH", "collapse_key": "123", "ttl": "86400s", "notification": {"notification_count": 1}}}}})

write("message-user.fcm-ios", {
    "description": "An FCM token of an iOS app: data message plus an apns block with the alert, badge and mutable-content.",
    "event": user_message_event, "recipient": "cometchat-uid-2", "badge": 1,
    "provider": {"kind": "fcm", "includeNotificationKey": False}, "platform": "fcm_ios", "route": "alert",
    "expected": {"fcm": {"token": "TOKEN", "data": strings(user_details),
                         "android": {"priority": "HIGH", "collapse_key": "123", "ttl": "86400s"},
                         "apns": {"headers": {"apns-priority": "10", "apns-push-type": "alert", "apns-collapse-id": "123",
                                              "apns-expiration": str(1741847453 + 86400)},
                                  "payload": {"aps": {"alert": {"title": "Andrew Joseph", "body": "Hello!"}, "badge": 1, "sound": "default",
                                                      "mutable-content": 1, "thread-id": "cometchat-uid-1_user_cometchat-uid-2"}}}}}})

webhook_details = dict(user_details)
webhook_details["custom"] = {"campaign": "spring"}
write("message-user.webhook", {
    "description": "CometChat: the custom provider's chat notification payload, with custom JSON configured.",
    "event": user_message_event, "recipient": "cometchat-uid-2", "settings": {"customJSON": {"campaign": "spring"}},
    "provider": {"kind": "custom"}, "route": "alert",
    "expected": {"webhook": {"trigger": "push-notification-payload-generated",
                             "data": {"to": {"uid": "cometchat-uid-2"}, "notificationDetails": webhook_details},
                             "appId": "app123", "region": "us", "webhook": "custom"}}})

# CometChat: calls.
def call_event(action):
    return {"type": "call", "callAction": action, "sessionId": "v1.123.aik2", "callType": "audio",
            "sender": andrew, "receiver": george, "receiverType": "user", "sentAt": SENT, "messageId": "123"}
def call_details(action):
    return {"title": "Andrew Joseph", "body": "AUDIO CALL",
            "sender": "cometchat-uid-1", "senderName": "Andrew Joseph", "senderAvatar": A1,
            "receiver": "cometchat-uid-2", "receiverName": "George Alan", "receiverAvatar": A2, "receiverType": "user",
            "tag": "123", "conversationId": "cometchat-uid-1_user_cometchat-uid-2", "type": "call",
            "callAction": action, "sessionId": "v1.123.aik2", "callType": "audio", "sentAt": str(SENT)}
write("call-initiated.webhook", {
    "description": "CometChat: the custom provider's call notification payload.",
    "event": call_event("initiated"), "recipient": "cometchat-uid-2", "provider": {"kind": "custom"}, "route": "alert",
    "expected": {"webhook": {"trigger": "push-notification-payload-generated",
                             "data": {"to": {"uid": "cometchat-uid-2"}, "notificationDetails": call_details("initiated")},
                             "appId": "app123", "region": "us", "webhook": "custom"}}})
voip = dict(call_details("initiated"))
voip["aps"] = {}
write("call-initiated.voip", {
    "description": "Kandy: a call being set up goes to the PushKit (VoIP) token, with what CallKit needs.",
    "event": call_event("initiated"), "recipient": "cometchat-uid-2", "provider": {"kind": "apns"},
    "platform": "apns_ios_voip", "route": "voip",
    "expected": {"apns": {"payload": voip, "pushType": "voip", "priority": 10}}})
alert_call = dict(call_details("initiated"))
alert_call["aps"] = {"alert": {"title": "Andrew Joseph", "body": "AUDIO CALL"}, "sound": "default", "thread-id": "cometchat-uid-1_user_cometchat-uid-2"}
write("call-initiated.apns-alert", {
    "description": "A device without a VoIP token gets the call as a standard alert (CometChat's AUDIO CALL).",
    "event": call_event("initiated"), "recipient": "cometchat-uid-2", "settings": {"badge": False}, "provider": {"kind": "apns"},
    "platform": "apns_ios_device", "route": "alert",
    "expected": {"apns": {"payload": alert_call, "pushType": "alert", "priority": 10, "collapseId": "v1.123.aik2"}}})
for action in ["cancelled", "unanswered", "ongoing", "rejected", "ended", "busy"]:
    payload = dict(call_details(action))
    payload["aps"] = {"content-available": 1}
    write(f"call-{action}.apns-background", {
        "description": f"CometChat's call action '{action}': a background update (content-available, priority 5), no alert.",
        "event": call_event(action), "recipient": "cometchat-uid-2", "provider": {"kind": "apns"},
        "platform": "apns_ios_device", "route": "background",
        "expected": {"apns": {"payload": payload, "pushType": "background", "priority": 5}}})

# CometChat: reaction. The receiver is the reactor (the conversation to open), as CometChat shows.
reaction_event = {"type": "reaction", "reaction": "😎", "messageId": "58", "messageSender": "cometchat-uid-2",
                  "reactor": andrew, "receiverType": "user", "sentAt": SENT}
reaction_details = {"title": "Andrew Joseph", "body": "Reacted to your message: 😎",
                    "sender": "cometchat-uid-1", "senderName": "Andrew Joseph", "senderAvatar": A1,
                    "receiver": "cometchat-uid-1", "receiverName": "Andrew Joseph", "receiverAvatar": A1, "receiverType": "user",
                    "tag": "58", "conversationId": "cometchat-uid-1_user_cometchat-uid-2", "type": "chat", "sentAt": str(SENT)}
write("reaction.webhook", {
    "description": "CometChat: the reaction notification payload.",
    "event": reaction_event, "recipient": "cometchat-uid-2", "provider": {"kind": "custom"}, "route": "alert",
    "expected": {"webhook": {"trigger": "push-notification-payload-generated",
                             "data": {"to": {"uid": "cometchat-uid-2"}, "notificationDetails": reaction_details},
                             "appId": "app123", "region": "us", "webhook": "custom"}}})

# CometChat: group actions.
texts = {"joined": "Andrew Joseph has joined", "left": "Andrew Joseph has left", "kicked": "Andrew Joseph kicked George Alan",
         "banned": "Andrew Joseph banned George Alan", "unbanned": "Andrew Joseph unbanned George Alan", "added": "Andrew Joseph added George Alan"}
for action, text in texts.items():
    event = {"type": "group_action", "action": action, "actor": andrew, "group": hiking, "sentAt": SENT}
    if action in ["kicked", "banned", "unbanned", "added"]:
        event["target"] = george
    details = {"title": "Hiking group", "body": text, "sender": "cometchat-uid-1", "senderName": "Andrew Joseph", "senderAvatar": A1,
               "receiver": "cometchat-guid-1", "receiverName": "Hiking group", "receiverType": "group",
               "tag": "cometchat-guid-1", "conversationId": "group_cometchat-guid-1", "type": "chat", "sentAt": str(SENT)}
    write(f"group-action-{action}.webhook", {
        "description": f"CometChat: the group action payload for '{action}'.",
        "event": event, "recipient": "cometchat-uid-3", "provider": {"kind": "custom"}, "route": "alert",
        "expected": {"webhook": {"trigger": "push-notification-payload-generated",
                                 "data": {"to": {"uid": "cometchat-uid-3"}, "notificationDetails": details},
                                 "appId": "app123", "region": "us", "webhook": "custom"}}})

# Sendbird: the Sendbird format.
sendbird = {"category": "messaging:offline_notification", "type": "MESG", "message": "Hello!", "custom_type": "", "message_id": 123,
            "created_at": SENT, "app_id": "app123", "unread_message_count": 3,
            "channel": {"channel_url": "cometchat-uid-1_user_cometchat-uid-2", "name": "Andrew Joseph", "custom_type": "", "channel_unread_count": 2},
            "channel_type": "messaging",
            "sender": {"id": "cometchat-uid-1", "name": "Andrew Joseph", "profile_url": A1, "require_auth_for_profile_image": False, "metadata": {}},
            "recipient": {"id": "cometchat-uid-2", "name": "George Alan"},
            "files": [], "translations": {}, "push_title": "Andrew Joseph", "push_alert": "Andrew Joseph: Hello!", "push_sound": "default",
            "audience_type": "only", "mentioned_users": []}
write("message-user.sendbird-apns", {
    "description": "Sendbird: APNs alert '{sender}: {text}', sound, badge = unread messages, and the sendbird object.",
    "event": user_message_event, "recipient": "cometchat-uid-2", "badge": 3, "unread": 2, "settings": {"payloadFormat": "sendbird"},
    "provider": {"kind": "apns"}, "platform": "apns_ios_device", "route": "alert",
    "expected": {"apns": {"payload": {"sendbird": sendbird, "aps": {"alert": "Andrew Joseph: Hello!", "badge": 3, "sound": "default",
                                                                    "thread-id": "cometchat-uid-1_user_cometchat-uid-2"}},
                          "pushType": "alert", "priority": 10, "collapseId": "123"}}})
write("message-user.sendbird-fcm", {
    "description": "Sendbird: an FCM data message with push_title, message and the sendbird object as JSON text.",
    "event": user_message_event, "recipient": "cometchat-uid-2", "badge": 3, "unread": 2, "settings": {"payloadFormat": "sendbird"},
    "provider": {"kind": "fcm"}, "platform": "fcm_android", "route": "alert",
    "expected": {"fcm": {"token": "TOKEN", "data": {"push_title": "Andrew Joseph", "message": "Andrew Joseph: Hello!",
                                                    "sendbird": json.dumps(sendbird, separators=(",", ":"), sort_keys=True, ensure_ascii=False)},
                         "android": {"priority": "HIGH", "collapse_key": "123", "ttl": "86400s"}}}})

# Kandy: localisation keys.
loc_user = dict(user_details)
loc_user["aps"] = {"alert": {"title-loc-key": "chatMessageNotification_title", "title-loc-args": ["Andrew Joseph"], "body": "Hello!"},
                   "badge": 1, "sound": "default", "thread-id": "cometchat-uid-1_user_cometchat-uid-2"}
write("message-user.apns-localized", {
    "description": "Kandy: chat with title-loc-key chatMessageNotification_title and the sender as its arg, the text as body.",
    "event": user_message_event, "recipient": "cometchat-uid-2", "badge": 1, "settings": {"localizationKeys": True},
    "provider": {"kind": "apns"}, "platform": "apns_ios_device", "route": "alert",
    "expected": {"apns": {"payload": loc_user, "pushType": "alert", "priority": 10, "collapseId": "123"}}})
added_event = {"type": "group_action", "action": "added", "actor": andrew, "target": george, "group": hiking, "sentAt": SENT}
added_details = {"title": "Hiking group", "body": "Andrew Joseph added George Alan", "sender": "cometchat-uid-1", "senderName": "Andrew Joseph",
                 "senderAvatar": A1, "receiver": "cometchat-guid-1", "receiverName": "Hiking group", "receiverType": "group",
                 "tag": "cometchat-guid-1", "conversationId": "group_cometchat-guid-1", "type": "chat", "sentAt": str(SENT)}
loc_added = dict(added_details)
loc_added["aps"] = {"alert": {"title-loc-key": "groupChatSessionInvitationNotification_title",
                              "loc-key": "groupChatSessionInvitationNotification_body", "loc-args": ["Hiking group"]},
                    "sound": "default", "thread-id": "group_cometchat-guid-1"}
write("group-action-added.apns-localized", {
    "description": "Kandy: a group invitation with groupChatSessionInvitationNotification_title/_body and the group name.",
    "event": added_event, "recipient": "cometchat-uid-2", "settings": {"localizationKeys": True, "badge": False},
    "provider": {"kind": "apns"}, "platform": "apns_ios_device", "route": "alert",
    "expected": {"apns": {"payload": loc_added, "pushType": "alert", "priority": 10}}})

# An edited message replaces the first notification: same collapse id, the edit in the message object.
edited_event = copy.deepcopy(user_message_event)
edited_event["action"] = "edited"
edited_event["message"]["text"] = "Hello again!"
edited_event["message"]["editedAt"] = 1741847460
edited_object = dict(user_message_object, text="Hello again!", editedAt=1741847460, editedBy="cometchat-uid-1")
edited = dict(user_details, body="Hello again!", message=edited_object)
edited["aps"] = {"alert": {"title": "Andrew Joseph", "body": "Hello again!"}, "sound": "default", "thread-id": "cometchat-uid-1_user_cometchat-uid-2"}
write("message-edited.apns", {
    "description": "An edited message: collapse id = the message id, so it replaces the first notification.",
    "event": edited_event, "recipient": "cometchat-uid-2", "settings": {"badge": False},
    "provider": {"kind": "apns"}, "platform": "apns_ios_device", "route": "alert",
    "expected": {"apns": {"payload": edited, "pushType": "alert", "priority": 10, "collapseId": "123"}}})
print(len(os.listdir(OUT)), "fixtures")

# Privacy: the text is hidden, in the alert and in the message object.
hidden_object = {k: v for k, v in user_message_object.items() if k != "text"}
hidden = dict(user_details, body="New message", message=hidden_object)
hidden["aps"] = {"alert": {"title": "Andrew Joseph", "body": "New message"}, "sound": "default", "thread-id": "cometchat-uid-1_user_cometchat-uid-2"}
write("message-user.apns-hidden", {
    "description": "The privacy option: 'New message' instead of the text, and no text in the message object.",
    "event": user_message_event, "recipient": "cometchat-uid-2", "settings": {"hideMessageText": True, "badge": False},
    "provider": {"kind": "apns"}, "platform": "apns_ios_device", "route": "alert",
    "expected": {"apns": {"payload": hidden, "pushType": "alert", "priority": 10, "collapseId": "123"}}})

# A web browser's FCM token: webpush with urgency and the notification shown by the browser.
write("message-user.fcm-web", {
    "description": "An FCM web token: the data message, and a webpush block (Urgency high, TTL, the notification with the sender's avatar); no android block.",
    "event": user_message_event, "recipient": "cometchat-uid-2", "settings": {"badge": False},
    "provider": {"kind": "fcm", "includeNotificationKey": True}, "platform": "fcm_web", "route": "alert",
    "expected": {"fcm": {"token": "TOKEN", "data": strings(user_details), "notification": {"title": "Andrew Joseph", "body": "Hello!"},
                         "webpush": {"headers": {"Urgency": "high", "TTL": "86400"},
                                     "notification": {"title": "Andrew Joseph", "body": "Hello!", "icon": A1}}}}})
print(len(os.listdir(OUT)), "fixtures")
