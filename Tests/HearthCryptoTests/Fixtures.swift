// Test keys generated with the OpenSSL 3 command line for these tests only; they protect nothing.

enum Fixtures {
    /// A 2048-bit RSA key as PKCS#8 (`openssl genpkey -algorithm RSA`).
    static let pkcs8Private = """
        -----BEGIN PRIVATE KEY-----
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDEG1hZtu/6fhgq
        ls6ifbGu72DUvmIC+EUKt4jN2SVTwPDXFSF7QBU66HHaKxNvOHUzTWtKJ6R4dQpY
        DTzEea44nUc2UcvjUhGnJnaa1bFodNC1sU86fVRH+beEChLowXPocaiydixEeWsF
        qD4BT6wjmNJ9LL9VCWs4Wj7zLQvzpHadi/nR9n/D+eCLJAP5XRQFqD1hym9wMSAQ
        aus7sLV+AUTY8A8g+Uzsp2H+YgM4rcAkZk1/tDLpE2vYBlhQI3LE2oBoFSo70trP
        9sKoJrAjSM9q8fWZJP+39U4Gw15j200Qne6dYrh+9wAZyfxj0PhcfKg9U7q54BST
        tdE83k3lAgMBAAECggEAJ+AfkO5/0YF+THqpvaStUpLeL6QerdfpwgobyS+URXl/
        /1wOmM8pAfdt3xzPMNhcDHh7jnKNIOk7lzfp2VGcuWpRppvvR2PSrxhFGarGDiVi
        ou9Q2uXNE22VgUXDHoznkqY51T/uNGYz+syA/ydCK2LRuh41MYdew/ClyDCqs3ms
        btfL0mMxiHPSWI+URAgm8S+rF8wsOTlZuT/EGRQvN+j9c0TPFGD4SJjNM8ZM2bOH
        4h7QeEip4jmAGsLi35QEuxc7wZ5i8omyZ5iFhpCaIfAeWfkBKjUO+G0Do3XRNaZI
        iRmFH/voyAHLPuKVTuJaa2XdD0hx2DkXqdHNRX0kQQKBgQDoRj20C6o2Trju2Urq
        nAVq9fb4ql5MA6eB+GzAwoMChA2nCwK8jdzvn/mtaJupn4yqKTPLgONKKWZT+XhY
        GNyq/eLpGtpL253nzk3hMlAf7/lK62GO8jyIcp3a+ZWJWdNOTy66v3g9aYXF2X7p
        +N/zMWR8tbemcvWVPC4AczYAvQKBgQDYI1shgGP0tTLnsqgE+HDE5BKfSQ134p0n
        3EH943v+5QvpLoNGBsu+g2hlxbINN4hBLFzp05vigegj4+BOUTGQ4/nNnN/MuQYs
        MNKzJFguyuCNQa4UI3cQATiiamYu4MbUT+Ycl9q2o1vhN2IBciH7agXVmRnPVjCK
        lPARz1X4SQKBgBnUddgn0+3mIzqsf2BHqXKTl7tfds0NOvuBHNbyyo7lEH+bAdrm
        C8O6DpHyKB1c2M+zdUcUNjJxGCgOfguN+Dwrr6gsjEoTSiQVFSQN7Esg7KAgPOEg
        nwqtdFB9oNt9WbpDo/awhDaQHYg6/5oVSxJIU9xqeNnRvu2xm4wBQ+ghAoGAdo++
        d7wkGKIlEHAyNrfJtFef13yNRMwshScPlCPrasFeLUV0gT9NGG6hH+K4bwOdXJLn
        TOTlR/UW0Ek6S/vCAsbrytxY78Y3GpqVmes/7Dshvpre0PE7aK4i0QUolGJ87w39
        HoY2VaV6yypEOqLO/UkFdkwLmm6fJgXZQwvHDvECgYEAjaxSj789bxxiSb0lhfV9
        Y1EYD9Uchcxckpik3Z1zKyFGfUZZhqXcESonIiblUc28BpXxYsZb2pN+D3y8DmG/
        aublK2QZiRKwyixV96Gp8Z/eBgWUSAhxg1dNvxIFXVFS2SFje3LiQ3SP3dDKrBZd
        BNxDd0Sdrw4BFt39fU+CVNQ=
        -----END PRIVATE KEY-----
        """

    /// The same key as PKCS#1 (`openssl rsa -traditional`).
    static let pkcs1Private = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEowIBAAKCAQEAxBtYWbbv+n4YKpbOon2xru9g1L5iAvhFCreIzdklU8Dw1xUh
        e0AVOuhx2isTbzh1M01rSiekeHUKWA08xHmuOJ1HNlHL41IRpyZ2mtWxaHTQtbFP
        On1UR/m3hAoS6MFz6HGosnYsRHlrBag+AU+sI5jSfSy/VQlrOFo+8y0L86R2nYv5
        0fZ/w/ngiyQD+V0UBag9YcpvcDEgEGrrO7C1fgFE2PAPIPlM7Kdh/mIDOK3AJGZN
        f7Qy6RNr2AZYUCNyxNqAaBUqO9Laz/bCqCawI0jPavH1mST/t/VOBsNeY9tNEJ3u
        nWK4fvcAGcn8Y9D4XHyoPVO6ueAUk7XRPN5N5QIDAQABAoIBACfgH5Duf9GBfkx6
        qb2krVKS3i+kHq3X6cIKG8kvlEV5f/9cDpjPKQH3bd8czzDYXAx4e45yjSDpO5c3
        6dlRnLlqUaab70dj0q8YRRmqxg4lYqLvUNrlzRNtlYFFwx6M55KmOdU/7jRmM/rM
        gP8nQiti0boeNTGHXsPwpcgwqrN5rG7Xy9JjMYhz0liPlEQIJvEvqxfMLDk5Wbk/
        xBkULzfo/XNEzxRg+EiYzTPGTNmzh+Ie0HhIqeI5gBrC4t+UBLsXO8GeYvKJsmeY
        hYaQmiHwHln5ASo1DvhtA6N10TWmSIkZhR/76MgByz7ilU7iWmtl3Q9Icdg5F6nR
        zUV9JEECgYEA6EY9tAuqNk647tlK6pwFavX2+KpeTAOngfhswMKDAoQNpwsCvI3c
        75/5rWibqZ+Mqikzy4DjSilmU/l4WBjcqv3i6RraS9ud585N4TJQH+/5SuthjvI8
        iHKd2vmViVnTTk8uur94PWmFxdl+6fjf8zFkfLW3pnL1lTwuAHM2AL0CgYEA2CNb
        IYBj9LUy57KoBPhwxOQSn0kNd+KdJ9xB/eN7/uUL6S6DRgbLvoNoZcWyDTeIQSxc
        6dOb4oHoI+PgTlExkOP5zZzfzLkGLDDSsyRYLsrgjUGuFCN3EAE4ompmLuDG1E/m
        HJfatqNb4TdiAXIh+2oF1ZkZz1YwipTwEc9V+EkCgYAZ1HXYJ9Pt5iM6rH9gR6ly
        k5e7X3bNDTr7gRzW8sqO5RB/mwHa5gvDug6R8igdXNjPs3VHFDYycRgoDn4Ljfg8
        K6+oLIxKE0okFRUkDexLIOygIDzhIJ8KrXRQfaDbfVm6Q6P2sIQ2kB2IOv+aFUsS
        SFPcanjZ0b7tsZuMAUPoIQKBgHaPvne8JBiiJRBwMja3ybRXn9d8jUTMLIUnD5Qj
        62rBXi1FdIE/TRhuoR/iuG8DnVyS50zk5Uf1FtBJOkv7wgLG68rcWO/GNxqalZnr
        P+w7Ib6a3tDxO2iuItEFKJRifO8N/R6GNlWlessqRDqizv1JBXZMC5punyYF2UML
        xw7xAoGBAI2sUo+/PW8cYkm9JYX1fWNRGA/VHIXMXJKYpN2dcyshRn1GWYal3BEq
        JyIm5VHNvAaV8WLGW9qTfg98vA5hv2rm5StkGYkSsMosVfehqfGf3gYFlEgIcYNX
        Tb8SBV1RUtkhY3ty4kN0j93QyqwWXQTcQ3dEna8OARbd/X1PglTU
        -----END RSA PRIVATE KEY-----
        """

    /// Its public key as SPKI (`openssl rsa -pubout`).
    static let spkiPublic = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAxBtYWbbv+n4YKpbOon2x
        ru9g1L5iAvhFCreIzdklU8Dw1xUhe0AVOuhx2isTbzh1M01rSiekeHUKWA08xHmu
        OJ1HNlHL41IRpyZ2mtWxaHTQtbFPOn1UR/m3hAoS6MFz6HGosnYsRHlrBag+AU+s
        I5jSfSy/VQlrOFo+8y0L86R2nYv50fZ/w/ngiyQD+V0UBag9YcpvcDEgEGrrO7C1
        fgFE2PAPIPlM7Kdh/mIDOK3AJGZNf7Qy6RNr2AZYUCNyxNqAaBUqO9Laz/bCqCaw
        I0jPavH1mST/t/VOBsNeY9tNEJ3unWK4fvcAGcn8Y9D4XHyoPVO6ueAUk7XRPN5N
        5QIDAQAB
        -----END PUBLIC KEY-----
        """

    /// Its public key as PKCS#1 (`openssl rsa -RSAPublicKey_out`).
    static let pkcs1Public = """
        -----BEGIN RSA PUBLIC KEY-----
        MIIBCgKCAQEAxBtYWbbv+n4YKpbOon2xru9g1L5iAvhFCreIzdklU8Dw1xUhe0AV
        Ouhx2isTbzh1M01rSiekeHUKWA08xHmuOJ1HNlHL41IRpyZ2mtWxaHTQtbFPOn1U
        R/m3hAoS6MFz6HGosnYsRHlrBag+AU+sI5jSfSy/VQlrOFo+8y0L86R2nYv50fZ/
        w/ngiyQD+V0UBag9YcpvcDEgEGrrO7C1fgFE2PAPIPlM7Kdh/mIDOK3AJGZNf7Qy
        6RNr2AZYUCNyxNqAaBUqO9Laz/bCqCawI0jPavH1mST/t/VOBsNeY9tNEJ3unWK4
        fvcAGcn8Y9D4XHyoPVO6ueAUk7XRPN5N5QIDAQAB
        -----END RSA PUBLIC KEY-----
        """

    /// A 1024-bit RSA public key, below the 2048-bit minimum.
    static let smallPublic = """
        -----BEGIN PUBLIC KEY-----
        MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDC7MuWMP60WjGnW6a7sglZ/LmA
        GWAI5pGYVoiLQOMF/ZPFgpMa4zrqufruw7qeAv8uS5OsGpDjx76B4X0MJr29pJmr
        W8JmKBfntCr02eo4qr7rsxh4jotnLVS3K2uqdieenk2AqV3AW18zLMj/ASz2fIqz
        JCkuJuwA01l9mvcLrQIDAQAB
        -----END PUBLIC KEY-----
        """

    /// A P-256 EC private key (PKCS#8).
    static let ecPrivate = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg0kfdSXvfGuCPMfqW
        vbpeC9aCpzrPSziIj+IqZohmh9ShRANCAASUjCOjmPZ7fFMCVO3BB1OS+sqf1MmY
        kMKwB23iOJvJTHutKJ6Y4p7oLeaK9tUQ9k2ht7XnACvoNpfCEASbaMiX
        -----END PRIVATE KEY-----
        """

    /// The P-256 EC public key (SPKI).
    static let ecPublic = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAElIwjo5j2e3xTAlTtwQdTkvrKn9TJ
        mJDCsAdt4jibyUx7rSiemOKe6C3mivbVEPZNobe15wAr6DaXwhAEm2jIlw==
        -----END PUBLIC KEY-----
        """

    /// An encrypted PKCS#8 key (password "secret").
    static let encryptedPKCS8 = """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAiDS3u9tRYzpAICCAAw
        DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEEIoWjMYJadKk3QAczz/tuSoEgZB9
        iHchD1pWsf7XJC2Yivr+pX/m9J8kOvfD6k1OSKjTHrukaNcp4YgP94bvVsDzKPxH
        mbCPc8xUZ6zqZNzNCo8L4SQDpWHotgXlIr0upEJTtFQZ4MkmazL3nAtPQBgQw36t
        HqtH2N95y1YiaIa3E93G+47EbkSjZ1Zoyj705KPkgZN6v/ZfFDq5iYezfXhCEB0=
        -----END ENCRYPTED PRIVATE KEY-----
        """

    /// The 2048-bit key as legacy encrypted PKCS#1, with Proc-Type/DEK-Info headers (password "secret").
    static let encryptedPKCS1 = """
        -----BEGIN RSA PRIVATE KEY-----
        Proc-Type: 4,ENCRYPTED
        DEK-Info: AES-128-CBC,3C25C01C009921CECC7C8E118834094A
        
        xvUZfsebrvxcFvGiO79cW78WSv3tNN/HB9WtgnsHLbwuGcRshsVHDjPSlSaty5Kq
        T33X7+x+WFtxfl0hikIlMKxc3EDUg1El4LJVd4XCtERk/Bvi0LD8/gkEU1i8h2Mz
        wr6zmTQ+TsuxjviA/G+1w9HdLewT5+vw99QZW2GxaSwiYihIjqclcRG7ufKBkLlz
        ktly65Q4t+9NJk6Rjf1SNbhtX4wtU0W0PZozzxBw4utizie4vIgpUiHU1PksK3MU
        9+uO3i3yKTgQblYuFpOgFSI1151myRmkouuGhhOw/Ovsbfm/yh22+Bd6RCM9XaRG
        QTJnCcZHYyriay4IYrttHn3d/yWkh4lWZFeBvKJvqErJblti6JnP0Z7yjQIa4NEh
        vAqunyX3jvZidXfQ0H8bK3DIxV6fpY6aZ8nfkrr7dGSJ2Tq931aK09jHLilLB0rL
        Ta3UiM4I39g3usR1NYfWfOKiG2U5V4HFfVh8Av0LXCbABz45eHMUWJfmJ7Nz/wxI
        DQJoWu/wFAGxGG/7mILpscRxLuRnPUHbUGdz1U7V6v2Wvo8JArFy81iv69mRkj2U
        MlkcVi6q8G7P7rE/q1BVqCALLf8LRFGP4nFnchH4qmgyA8ThEtEalbSuszQgeWT5
        CynlXRi1rncAjWsK7nfTg0oeB/K7tLR017DArTpPrY2CtEB3Bdpz8WXpbfh/pmMu
        cuNiz2Pmze/jHyT6I5qXa/DmvcMQzCK8UIbY3xEvXSx1hmbEbWSe0q5H6SdSknjQ
        bqSgbL6ivErPT4dmJFl75qx9/jHESoVfC9Ti8vOCEfgPxGDUFvR1S1szlRDPEODD
        nKCd57KFHtplsFeQzFYOq7F2ZylOs+FoAqWdZuOS6iaS45yyIhpOlXY/Skmv5+kU
        /d1xNWCpF2OsuiFzqXEC3nJpQAPJ+HCQ2ImXIf6UZCWaHwRdSCU0o0KyUIX6wonU
        EbsrmUJsIE+Nxly7rB2u6bpjz23xpCir5+XvEiQyL2+9uyNgqBU4RjWA+QB/PULp
        8ELAGggmJ9KwFxIkw/DkcxEi7bYKxqPLskfuKJU4kdmVTpFzrZRCWh0t1FWIH3kz
        xFgoDF/px21arZxMZyDKYiyBrkW7/e4uTjf3y5PSCZWZVfuN7BYZ9PwKb8RwQSE6
        QPzZxVnJwkFsgcRdwFKRCxZQUEpDBnYcgEj5+p0suFEsm10PW4LDsCfXoQVqDWBw
        ix6j27qpT8O2X57zP59owESeSUmYl52zBV0C9l9de2c43q0czke00/NOb0PWO1lX
        yGh09MP9GQsv5+BQRSDjs/rLQH9MbJ3p9krCm0BLSxyXmqp1tAlF9VmNfKUxDkdd
        prSuKCHWfgNEGP3x4zx8O+iPUZaeOT6AbNSz/jvN1YEab+fO7ralXSfGGK9Z/898
        qC7iuCZOHNqr3flLdObms75O7RKyypXlwRrDsJwGABgosotxYFdeLIX2RzK8tCAo
        Gm4gkDCgeDmMK9i8pdtgYrlRi7JeYOXN+fDvTm4GZLUIVj/SAEntp7Qb2UEs4KlW
        jnoVqfIpgezPystIXRR7nJ8dA5IJAVA0gDfaHs/zFYAYhGpQJCyun7nqwWwq/pjV
        -----END RSA PRIVATE KEY-----
        """
}
